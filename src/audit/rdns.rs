//! Forward-confirmed reverse DNS, as the operators document it for their robots: an
//! address's PTR names, each kept only when it resolves back to the address. Lookups go
//! through hickory's resolver (the system's servers, or one given), a few at a time, each
//! with a time limit, and every address is looked up once.

use std::net::{IpAddr, SocketAddr};
use std::time::{Duration, Instant};

use futures::StreamExt;
use hickory_resolver::TokioResolver;
use hickory_resolver::config::{ConnectionConfig, NameServerConfig, ResolverConfig};
use hickory_resolver::net::runtime::TokioRuntimeProvider;
use hickory_resolver::proto::rr::RData;

use super::identity::host_is_under;

/// The lookups under way at once.
const CONCURRENT_LOOKUPS: usize = 32;
/// The PTR names of one address checked at most (a hostile zone can list hundreds).
const NAMES_CHECKED: usize = 4;
/// The addresses remembered; past them, an address is not looked up (and is
/// unverifiable), so that a log of a million addresses cannot fill memory.
pub const REMEMBERED_ADDRESSES: usize = 200_000;

/// What the DNS said of an address.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// Its PTR names that resolve back to it (none: no name, or none confirmed).
    Confirmed(Vec<String>),
    /// No answer in time, or the servers failed.
    NoAnswer,
}

/// A resolver, its runtime and what it has found.
pub struct ReverseDns {
    runtime: tokio::runtime::Runtime,
    resolver: TokioResolver,
    /// By address and the family asked about (its names are the ones looked up).
    answers: foldhash::HashMap<(IpAddr, usize), Answer>,
}

impl std::fmt::Debug for ReverseDns {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("ReverseDns").field("answers", &self.answers.len()).finish_non_exhaustive()
    }
}

impl ReverseDns {
    /// A resolver that asks `server` (UDP, then TCP), or the system's servers; each query
    /// waits `timeout` at most.
    ///
    /// # Errors
    ///
    /// When the system's configuration cannot be read, or the runtime cannot start.
    pub fn new(server: Option<SocketAddr>, timeout: Duration) -> Result<ReverseDns, String> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|error| format!("starting the resolver: {error}"))?;
        let mut builder = match server {
            Some(server) => {
                let connection = |mut config: ConnectionConfig| {
                    config.port = server.port();
                    config
                };
                let name_server = NameServerConfig::new(
                    server.ip(),
                    true,
                    vec![connection(ConnectionConfig::udp()), connection(ConnectionConfig::tcp())],
                );
                TokioResolver::builder_with_config(
                    ResolverConfig::from_name_servers(vec![name_server]),
                    TokioRuntimeProvider::default(),
                )
            }
            None => TokioResolver::builder_tokio()
                .map_err(|error| format!("reading the system's DNS configuration: {error}"))?,
        };
        let options = builder.options_mut();
        options.timeout = timeout;
        options.attempts = 1;
        // Names are looked up as given (a PTR name is absolute): no search domains.
        options.ndots = 0;
        let resolver = {
            let _entered = runtime.enter();
            builder.build().map_err(|error| format!("starting the resolver: {error}"))?
        };
        Ok(ReverseDns { runtime, resolver, answers: foldhash::HashMap::default() })
    }

    /// The addresses looked up, and how many of them had no answer.
    #[must_use]
    pub fn asked_and_unanswered(&self) -> (usize, usize) {
        let unanswered = self.answers.values().filter(|answer| **answer == Answer::NoAnswer).count();
        (self.answers.len(), unanswered)
    }

    /// What the DNS said of `address` for `family`, once it was looked up.
    #[must_use]
    pub fn answer(&self, address: IpAddr, family: usize) -> Option<&Answer> {
        self.answers.get(&(address, family))
    }

    /// Looks up the addresses not looked up yet for `family` (whose robots' names end in
    /// `suffixes`), a few at a time, until `deadline`: those without an answer by then
    /// have none.
    pub fn look_up(
        &mut self,
        family: usize,
        suffixes: &[String],
        addresses: impl IntoIterator<Item = IpAddr>,
        deadline: Instant,
    ) {
        let mut new: Vec<IpAddr> =
            addresses.into_iter().filter(|address| !self.answers.contains_key(&(*address, family))).collect();
        new.sort_unstable();
        new.dedup();
        new.truncate(REMEMBERED_ADDRESSES.saturating_sub(self.answers.len()));
        if new.is_empty() {
            return;
        }
        let resolver = &self.resolver;
        let answers = &mut self.answers;
        let mut lookups = futures::stream::iter(new.clone())
            .map(|address| async move { (address, confirmed_names(resolver, address, suffixes).await) })
            .buffer_unordered(CONCURRENT_LOOKUPS);
        let deadline = tokio::time::Instant::from_std(deadline);
        // Each answer is kept as it comes: the deadline cuts off only those still out.
        self.runtime.block_on(async {
            while let Ok(Some((address, answer))) = tokio::time::timeout_at(deadline, lookups.next()).await {
                answers.insert((address, family), answer);
            }
        });
        for address in new {
            self.answers.entry((address, family)).or_insert(Answer::NoAnswer);
        }
    }
}

/// The PTR names of `address` under `suffixes` that resolve back to it. A name elsewhere
/// is not looked up: it proves nothing, and a forger's own zone could fail on purpose.
async fn confirmed_names(resolver: &TokioResolver, address: IpAddr, suffixes: &[String]) -> Answer {
    let names: Vec<String> = match resolver.reverse_lookup(address).await {
        Ok(lookup) => lookup
            .answers()
            .iter()
            .filter_map(|record| match &record.data {
                RData::PTR(name) => Some(name.0.to_ascii()),
                _ => None,
            })
            .filter(|name| host_is_under(name, suffixes))
            .take(NAMES_CHECKED)
            .collect(),
        Err(error) if error.is_no_records_found() => return Answer::Confirmed(Vec::new()),
        Err(_) => return Answer::NoAnswer,
    };
    let mut confirmed = Vec::new();
    for name in names {
        // The name is absolute: looked up as it is, without search domains.
        let absolute = if name.ends_with('.') { name.clone() } else { format!("{name}.") };
        match resolver.lookup_ip(absolute.as_str()).await {
            Ok(addresses) if addresses.iter().any(|back| back == address) => confirmed.push(name),
            Ok(_) => {}
            Err(error) if error.is_no_records_found() => {}
            Err(_) => return Answer::NoAnswer,
        }
    }
    Answer::Confirmed(confirmed)
}
