//! The HTTP half of a fetch: reqwest (rustls) on tokio. Follows at most
//! [`MAX_REDIRECTS`] redirects itself, recording each hop; stops reading at the size cap
//! and never buffers the rest; one timeout covers the whole fetch. What the answer
//! means is `response.rs`'s business.

use std::time::Instant;

use url::Url;

use super::Limits;
use super::response::{FetchError, Fetched, Hop, MAX_REDIRECTS, Status};

/// Fetches a robots.txt URL the way crawlers do. Never panics and never waits past
/// `limits.timeout`.
pub async fn fetch(url: &Url, limits: &Limits) -> Result<Fetched, FetchError> {
    fetch_gated(url, limits, &mut Open).await
}

/// Asked before each redirect is followed: a page fetch asks robots.txt
/// (`fetch/page.rs`), a robots.txt fetch follows every redirect (RFC 9309 §2.3.1.2).
pub(crate) trait Gate {
    /// Whether the redirect to `url` may be followed.
    async fn may_follow(&mut self, url: &Url) -> bool;
}

/// The gate that lets every redirect through.
pub(crate) struct Open;

impl Gate for Open {
    async fn may_follow(&mut self, _url: &Url) -> bool {
        true
    }
}

/// [`fetch`], asking `gate` before following each redirect; one timeout covers it all,
/// what the gate does included.
pub(crate) async fn fetch_gated(url: &Url, limits: &Limits, gate: &mut impl Gate) -> Result<Fetched, FetchError> {
    let started = Instant::now();
    let client = client(limits)?;
    match tokio::time::timeout(limits.timeout, fetch_unbounded(&client, url, limits, started, gate)).await {
        Ok(result) => result,
        Err(_) => Err(FetchError::Timeout(limits.timeout)),
    }
}

/// [`fetch`] over a client that many fetches share (its connection pool), bounded by
/// `limits.timeout` like every fetch.
pub(crate) async fn fetch_with(client: &reqwest::Client, url: &Url, limits: &Limits) -> Result<Fetched, FetchError> {
    let started = Instant::now();
    match tokio::time::timeout(limits.timeout, fetch_unbounded(client, url, limits, started, &mut Open)).await {
        Ok(result) => result,
        Err(_) => Err(FetchError::Timeout(limits.timeout)),
    }
}

async fn fetch_unbounded(
    client: &reqwest::Client,
    url: &Url,
    limits: &Limits,
    started: Instant,
    gate: &mut impl Gate,
) -> Result<Fetched, FetchError> {
    let mut opened = open(client, url, gate).await?;
    let (body, truncated) = match &mut opened.response {
        Some(response) => read_capped(response, limits.robots_txt_bytes(), &opened.final_url).await?,
        None => (Vec::new(), false),
    };
    Ok(Fetched {
        requested: url.clone(),
        hops: opened.hops,
        final_url: opened.final_url,
        status: opened.status,
        headers: opened.headers,
        body,
        truncated,
        redirect_loop: opened.redirect_loop,
        refused: opened.refused,
        elapsed: started.elapsed(),
    })
}

/// The HTTP client of a fetch, or of many that share its connection pool: redirects
/// are followed by [`open`], not by reqwest.
pub(crate) fn client(limits: &Limits) -> Result<reqwest::Client, FetchError> {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .connect_timeout(limits.connect_timeout)
        .user_agent(limits.user_agent.clone())
        .build()
        .map_err(|e| FetchError::Client(e.to_string()))
}

/// A response whose body is yet to be read, after the redirects.
#[derive(Debug)]
pub(crate) struct Opened {
    /// The last URL asked.
    pub final_url: Url,
    /// Its status.
    pub status: Status,
    /// Its headers, names in lower case.
    pub headers: Vec<(String, String)>,
    /// The redirects followed.
    pub hops: Vec<Hop>,
    /// True when the redirects went round.
    pub redirect_loop: bool,
    /// A redirect the gate refused.
    pub refused: Option<Url>,
    /// The response to read the body from; `None` when the redirects stopped (the
    /// status is then the last 3xx).
    pub response: Option<reqwest::Response>,
}

/// Asks for `url` and follows at most [`MAX_REDIRECTS`] redirects, asking `gate` before
/// each; the body is left unread. No timeout of its own: the caller bounds it.
pub(crate) async fn open(client: &reqwest::Client, url: &Url, gate: &mut impl Gate) -> Result<Opened, FetchError> {
    let mut hops = Vec::new();
    let mut current = url.clone();
    let mut redirect_loop = false;
    loop {
        let response = client.get(current.clone()).send().await.map_err(|e| classify(&e, &current))?;
        let status = Status(response.status().as_u16());
        let location = response
            .headers()
            .get(reqwest::header::LOCATION)
            .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
        if let (true, Some(location)) = (response.status().is_redirection(), location) {
            let next = current
                .join(&location)
                .ok()
                .filter(|next| matches!(next.scheme(), "http" | "https"))
                .ok_or_else(|| FetchError::BadRedirect { from: current.to_string(), location: location.clone() })?;
            hops.push(Hop { url: current.clone(), status });
            redirect_loop |= hops.iter().any(|hop| hop.url == next) || next == *url;
            let stop = hops.len() > MAX_REDIRECTS || redirect_loop;
            let refused = (!stop && !gate.may_follow(&next).await).then(|| next.clone());
            if stop || refused.is_some() {
                // Give up: the chain is too long, goes round, or leads where robots.txt
                // keeps the robots out. The last answer (a 3xx) stands as the outcome.
                let headers = headers_of(&response);
                return Ok(Opened {
                    final_url: current,
                    status,
                    headers,
                    hops,
                    redirect_loop,
                    refused,
                    response: None,
                });
            }
            current = next;
            continue;
        }
        let headers = headers_of(&response);
        return Ok(Opened {
            final_url: current,
            status,
            headers,
            hops,
            redirect_loop,
            refused: None,
            response: Some(response),
        });
    }
}

fn headers_of(response: &reqwest::Response) -> Vec<(String, String)> {
    response
        .headers()
        .iter()
        .map(|(name, value)| {
            (name.as_str().to_ascii_lowercase(), String::from_utf8_lossy(value.as_bytes()).into_owned())
        })
        .collect()
}

/// Reads the body chunk by chunk, up to `max_bytes`; stops there and drops the
/// connection, so the rest is never downloaded.
async fn read_capped(
    response: &mut reqwest::Response,
    max_bytes: usize,
    url: &Url,
) -> Result<(Vec<u8>, bool), FetchError> {
    let mut body = Vec::with_capacity(max_bytes.min(64 * 1024));
    while let Some(chunk) = response.chunk().await.map_err(|e| classify(&e, url))? {
        let room = max_bytes - body.len();
        if chunk.len() > room {
            body.extend_from_slice(&chunk[..room]);
            return Ok((body, true));
        }
        body.extend_from_slice(&chunk);
        if body.len() == max_bytes {
            // Exactly at the cap: one more chunk would tell whether there is more.
            let more = response.chunk().await.map_err(|e| classify(&e, url))?.is_some_and(|c| !c.is_empty());
            return Ok((body, more));
        }
    }
    Ok((body, false))
}

/// Turns a reqwest error into words, by looking through its causes.
pub(crate) fn classify(error: &reqwest::Error, url: &Url) -> FetchError {
    let host = url.host_str().unwrap_or_default().to_owned();
    let port = url.port_or_known_default().unwrap_or_default();
    let mut chain = Vec::new();
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(cause) = source {
        chain.push(cause.to_string());
        if let Some(io) = cause.downcast_ref::<std::io::Error>()
            && io.kind() == std::io::ErrorKind::ConnectionRefused
        {
            return FetchError::Refused { host, port };
        }
        source = cause.source();
    }
    let text = chain.join(": ").to_ascii_lowercase();
    let detail = chain.last().cloned().unwrap_or_else(|| error.to_string());
    // rustls reads the plain-HTTP answer to its hello ("HTTP/1.1 400 ...") as a record
    // of an unknown type.
    if url.scheme() == "https" && (text.contains("corrupt message") || text.contains("invalidcontenttype")) {
        // The same port, which is 443 when the URL names none.
        let mut http_url = url.clone();
        let _ = http_url.set_scheme("http");
        let _ = http_url.set_port(Some(port));
        return FetchError::NotTls { host, port, http_url: http_url.to_string() };
    }
    if error.is_timeout() {
        FetchError::Connect { host, detail: "the connection timed out".to_owned() }
    } else if text.contains("dns error")
        || text.contains("failed to lookup")
        || text.contains("name or service not known")
    {
        FetchError::Dns { host }
    } else if text.contains("certificate") || text.contains("tls") || text.contains("handshake") {
        FetchError::Tls { host, detail }
    } else if error.is_connect() {
        FetchError::Connect { host, detail }
    } else {
        FetchError::Protocol { host, detail }
    }
}
