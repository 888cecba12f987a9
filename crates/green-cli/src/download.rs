//! `green data get --download`: the registry's files over HTTP(S), in a build with the
//! `download` feature only.
//!
//! A default build never opens a connection (its tests and CI run offline, and a user's data
//! comes from `--from`); a user who wants green to fetch the data builds it with `--features
//! download` and says `--download`. Each file is fetched from its pinned URL (a raw file at the
//! commit the registry names), or as `{mirror}/{path}` from a copy of the data directory served
//! over HTTP; [`crate::install`] checks it like any other source before keeping it.

use std::io::Read;
use std::time::Duration;

use anyhow::{bail, Result};

use crate::registry::{Dataset, File};

/// Fetches files from the registry's URLs or a mirror.
pub struct Downloader {
    agent: ureq::Agent,
    mirror: Option<String>,
}

impl Downloader {
    pub fn new(mirror: Option<String>) -> Result<Downloader> {
        if let Some(m) = &mirror {
            if !(m.starts_with("http://") || m.starts_with("https://")) {
                bail!("--mirror '{m}' is not an http:// or https:// URL");
            }
        }
        let agent = ureq::Agent::config_builder()
            .user_agent(format!("green/{}", env!("CARGO_PKG_VERSION")))
            .timeout_connect(Some(Duration::from_secs(30)))
            .timeout_recv_response(Some(Duration::from_secs(60)))
            .timeout_recv_body(Some(Duration::from_secs(600)))
            .build()
            .into();
        Ok(Downloader {
            agent,
            mirror: mirror.map(|m| m.trim_end_matches('/').to_string()),
        })
    }

    pub fn describe(&self) -> String {
        match &self.mirror {
            Some(m) => format!("the mirror {m}"),
            None => "the registry's pinned URLs".to_string(),
        }
    }

    /// Where `file` is downloaded from.
    pub fn url(&self, dataset: &Dataset, file: &File) -> String {
        match &self.mirror {
            Some(mirror) => format!("{mirror}/{}", encode_path(&file.path)),
            None => format!(
                "{}/{}",
                dataset.url.trim_end_matches('/'),
                encode_path(file.from.as_deref().unwrap_or(&file.path))
            ),
        }
    }

    /// Request `file` and hand its body, with the URL, to `sink`.
    pub fn fetch(
        &self,
        dataset: &Dataset,
        file: &File,
        sink: &mut dyn FnMut(&mut dyn Read, &str) -> Result<()>,
    ) -> Result<()> {
        let url = self.url(dataset, file);
        let response = match self.agent.get(&url).call() {
            Ok(r) => r,
            Err(ureq::Error::StatusCode(code)) => bail!(
                "cannot download {}: {url} answered HTTP {code}; nothing was installed{}",
                file.path,
                if self.mirror.is_some() {
                    " (does the mirror hold the data directory's layout?)"
                } else {
                    ""
                }
            ),
            Err(e) => bail!(
                "cannot download {}: {url}: {e}; nothing was installed; check the network, or give --from PATH",
                file.path
            ),
        };
        let mut body = response.into_body().into_reader();
        sink(&mut body, &url)
    }
}

/// A relative path as a URL path: every byte but unreserved ones and `/` percent-encoded
/// (RevisitCGEC's folders have spaces).
fn encode_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_percent_encoded() {
        assert_eq!(
            encode_path("system corrections/bart.mucgec.txt"),
            "system%20corrections/bart.mucgec.txt"
        );
        assert_eq!(encode_path("a+b/ü"), "a%2Bb/%C3%BC");
    }
}
