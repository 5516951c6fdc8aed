//! A small HTTP/1.1 server on 127.0.0.1 for the tests: real sockets, real faults (error
//! statuses, redirect chains and loops, huge and slow bodies), no internet.
//!
//! Each test starts its own server on a free port with a router from request path to
//! [`Reply`]; the server counts the body bytes it managed to send, so a test can check
//! that a client stopped reading early.

#![allow(dead_code, reason = "each test file uses the part of the server it needs")]

pub mod cli;
pub mod explorer;

use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What the server answers to one request.
#[derive(Debug, Clone)]
pub enum Reply {
    /// A status with headers and a body.
    Status { status: u16, headers: Vec<(&'static str, String)>, body: Vec<u8> },
    /// A redirect to `location`.
    Redirect { status: u16, location: String },
    /// `bytes` bytes of `filler` repeated after `head`, sent in chunks until the client
    /// hangs up.
    Huge { content_type: &'static str, head: Vec<u8>, filler: Vec<u8>, bytes: usize },
    /// The body one byte at a time, `gap` apart.
    Slow { body: Vec<u8>, gap: Duration },
}

impl Reply {
    /// 200 with a text/plain body.
    pub fn text(body: &str) -> Reply {
        Reply::Status {
            status: 200,
            headers: vec![("Content-Type", "text/plain".into())],
            body: body.as_bytes().to_vec(),
        }
    }

    /// A status with a short HTML body.
    pub fn status(status: u16) -> Reply {
        Reply::Status {
            status,
            headers: vec![("Content-Type", "text/html".into())],
            body: format!("<html><body>{status}</body></html>").into_bytes(),
        }
    }
}

/// A running test server.
pub struct Server {
    /// Where it listens.
    pub addr: SocketAddr,
    sent: Arc<AtomicUsize>,
    user_agents: Arc<Mutex<Vec<String>>>,
    paths: Arc<Mutex<Vec<String>>>,
    /// Responses ended (written whole, or cut by the client), and a bell for each.
    ended: Arc<(Mutex<usize>, std::sync::Condvar)>,
}

impl Server {
    /// Starts a server answering each request path with `router(path)`.
    pub fn start(router: impl Fn(&str) -> Reply + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
        let addr = listener.local_addr().expect("address");
        let sent = Arc::new(AtomicUsize::new(0));
        let user_agents = Arc::new(Mutex::new(Vec::new()));
        let paths = Arc::new(Mutex::new(Vec::new()));
        let router = Arc::new(router);
        let ended = Arc::new((Mutex::new(0), std::sync::Condvar::new()));
        let (counter, agents, asked) = (Arc::clone(&sent), Arc::clone(&user_agents), Arc::clone(&paths));
        let bell = Arc::clone(&ended);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (router, counter, agents, asked) =
                    (Arc::clone(&router), Arc::clone(&counter), Arc::clone(&agents), Arc::clone(&asked));
                let bell = Arc::clone(&bell);
                std::thread::spawn(move || {
                    serve(stream, &*router, &counter, &agents, &asked);
                    *bell.0.lock().expect("ended") += 1;
                    bell.1.notify_all();
                });
            }
        });
        Server { addr, sent, user_agents, paths, ended }
    }

    /// `http://127.0.0.1:PORT{path}`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// The same server under the name `localhost`: another host for the client.
    pub fn other_host_url(&self, path: &str) -> String {
        format!("http://localhost:{}{path}", self.addr.port())
    }

    /// The User-Agent header of every request so far.
    pub fn user_agents(&self) -> Vec<String> {
        self.user_agents.lock().expect("user agents").clone()
    }

    /// The path of every request so far, in order.
    pub fn paths_asked(&self) -> Vec<String> {
        self.paths.lock().expect("paths").clone()
    }

    /// Waits until `count` connections have been served to their end, the response
    /// written whole or cut by the client (one request a connection: the server says
    /// `Connection: close`); half a minute at most, so that a broken client fails the
    /// test, not hangs it.
    /// The wait runs on a thread of its own: the client's tasks, which close its
    /// connections, go on meanwhile.
    pub async fn wait_for_responses(&self, count: usize) {
        let ended = Arc::clone(&self.ended);
        let waited = tokio::task::spawn_blocking(move || {
            let (ended, bell) = &*ended;
            let guard = ended.lock().expect("ended");
            let timeout = std::time::Duration::from_secs(30);
            *bell.wait_timeout_while(guard, timeout, |ended| *ended < count).expect("ended").0
        });
        let ended = waited.await.expect("the wait");
        assert!(ended >= count, "{ended} of {count} responses ended");
    }

    /// Body bytes written to clients so far; for `Reply::Huge`, the most written in one
    /// response.
    pub fn body_bytes_sent(&self) -> usize {
        self.sent.load(Ordering::SeqCst)
    }
}

fn serve(
    stream: TcpStream,
    router: &dyn Fn(&str) -> Reply,
    sent: &AtomicUsize,
    user_agents: &Mutex<Vec<String>>,
    paths: &Mutex<Vec<String>>,
) {
    let mut reader = BufReader::new(stream.try_clone().expect("clone stream"));
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).is_err() {
        return;
    }
    loop {
        let mut header = String::new();
        match reader.read_line(&mut header) {
            Ok(0) | Err(_) => return,
            Ok(_) if header == "\r\n" || header == "\n" => break,
            Ok(_) => {
                if let Some((name, value)) = header.split_once(':')
                    && name.eq_ignore_ascii_case("user-agent")
                {
                    user_agents.lock().expect("user agents").push(value.trim().to_owned());
                }
            }
        }
    }
    let path = request_line.split_whitespace().nth(1).unwrap_or("/").to_owned();
    paths.lock().expect("paths").push(path.clone());
    let mut stream = stream;
    let _ = match router(&path) {
        Reply::Status { status, headers, body } => {
            let mut head = format!("HTTP/1.1 {status} X\r\nContent-Length: {}\r\nConnection: close\r\n", body.len());
            for (name, value) in headers {
                head.push_str(name);
                head.push_str(": ");
                head.push_str(&value);
                head.push_str("\r\n");
            }
            head.push_str("\r\n");
            stream
                .write_all(head.as_bytes())
                .and_then(|()| stream.write_all(&body))
                .map(|()| sent.fetch_add(body.len(), Ordering::SeqCst))
        }
        Reply::Redirect { status, location } => {
            let head = format!(
                "HTTP/1.1 {status} X\r\nLocation: {location}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
            );
            stream.write_all(head.as_bytes()).map(|()| 0)
        }
        Reply::Huge { content_type, head, filler, bytes } => {
            let header = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {content_type}\r\nContent-Length: {bytes}\r\nConnection: close\r\n\r\n"
            );
            let mut result = stream.write_all(header.as_bytes()).and_then(|()| stream.write_all(&head));
            let mut written = head.len();
            while result.is_ok() && written < bytes {
                let n = filler.len().min(bytes - written);
                result = stream.write_all(&filler[..n]);
                if result.is_ok() {
                    written += n;
                }
            }
            // Keep the largest single response: what one client let through.
            sent.fetch_max(written, Ordering::SeqCst);
            result.map(|()| written)
        }
        Reply::Slow { body, gap } => {
            let header = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let mut result = stream.write_all(header.as_bytes()).and_then(|()| stream.flush());
            for byte in &body {
                if result.is_err() {
                    break;
                }
                std::thread::sleep(gap);
                result = stream.write_all(&[*byte]).and_then(|()| stream.flush());
                if result.is_ok() {
                    sent.fetch_add(1, Ordering::SeqCst);
                }
            }
            result.map(|()| body.len())
        }
    };
}

/// A port on 127.0.0.1 where nothing listens.
pub fn refused_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.local_addr().expect("address").port()
}
