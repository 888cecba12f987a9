//! A streaming line reader with Python text-mode semantics.
//!
//! Python's universal newlines end a line at `\n`, `\r\n` or a lone `\r`; the terminator is
//! dropped and nothing else is touched (trailing spaces and tabs stay). A UTF-8 byte-order
//! mark is kept as U+FEFF, exactly as Python's `utf-8` codec keeps it; callers may strip it.
//!
//! A regular file of at most [`WHOLE_FILE_BYTES`] is read whole when opened, and its lines
//! are ranges of that one text ([`LineReader::next_range`]): on small inputs, copying every
//! line into a batch and the page faults of the copies cost more than the scoring's reading.
//! [`Input::open_mapped`] maps such a file instead of reading it: its text is then the page
//! cache's own pages, so nothing is copied and no fresh memory is touched (on a small corpus,
//! zeroing and faulting in the read buffers was a tenth of the whole run).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::ops::{Deref, Range};
use std::sync::Arc;

use crate::Error;

/// Where lines come from: a path, or `-` for standard input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    Path(String),
    Stdin,
}

impl Input {
    pub fn parse(s: &str) -> Input {
        if s == "-" {
            Input::Stdin
        } else {
            Input::Path(s.to_owned())
        }
    }

    /// The name shown in messages and output: the path as given, or `-`.
    pub fn name(&self) -> &str {
        match self {
            Input::Path(p) => p,
            Input::Stdin => "-",
        }
    }

    pub fn open(&self) -> Result<LineReader<Box<dyn BufRead + Send>>, Error> {
        self.open_as(false)
    }

    /// [`Input::open`], but a regular file of at most [`WHOLE_FILE_BYTES`] is mapped into
    /// memory rather than read (when the system allows; else it is read).
    ///
    /// # Safety
    ///
    /// The file must not be changed while its text is in use. If it is truncated, reading a
    /// lost page raises `SIGBUS`, which kills the process unless the caller handles it; if it
    /// is rewritten, the text (checked to be UTF-8 when mapped) may change under its reader.
    pub unsafe fn open_mapped(&self) -> Result<LineReader<Box<dyn BufRead + Send>>, Error> {
        self.open_as(true)
    }

    fn open_as(&self, mapped: bool) -> Result<LineReader<Box<dyn BufRead + Send>>, Error> {
        let reader: Box<dyn BufRead + Send> = match self {
            Input::Path(p) => {
                let open_error = |source| Error::Open {
                    path: p.clone(),
                    source,
                };
                let mut f = File::open(p).map_err(open_error)?;
                let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
                match size {
                    Some(size) if size <= WHOLE_FILE_BYTES => {
                        let empty = || -> Box<dyn BufRead + Send> { Box::new(io::empty()) };
                        // SAFETY: the caller of open_mapped takes on the file's stability. A
                        // map of another length than the size just read is a file that
                        // changed meanwhile: it is read instead.
                        let map = (mapped && size > 0)
                            .then(|| unsafe { memmap2::Mmap::map(&f) }.ok())
                            .flatten()
                            .filter(|map| map.len() as u64 == size);
                        if let Some(map) = map {
                            return Ok(LineReader::new(empty(), self.name()).with_map(map));
                        }
                        let mut bytes = Vec::with_capacity(size as usize + 1);
                        (&mut f)
                            .take(WHOLE_FILE_BYTES + 1)
                            .read_to_end(&mut bytes)
                            .map_err(open_error)?;
                        if bytes.len() as u64 <= WHOLE_FILE_BYTES {
                            return Ok(LineReader::new(empty(), self.name()).with_text(bytes));
                        }
                        // The file grew while it was read: stream it from what was read on.
                        let rest = io::Cursor::new(bytes).chain(f);
                        Box::new(BufReader::with_capacity(1 << 16, rest))
                    }
                    _ => Box::new(BufReader::with_capacity(1 << 16, f)),
                }
            }
            Input::Stdin => Box::new(BufReader::new(io::stdin())),
        };
        Ok(LineReader::new(reader, self.name()))
    }

    /// Size in bytes when known (for progress bars).
    #[allow(clippy::len_without_is_empty)] // a size hint, not a container
    pub fn len(&self) -> Option<u64> {
        match self {
            Input::Path(p) => std::fs::metadata(p).ok().map(|m| m.len()),
            Input::Stdin => None,
        }
    }
}

/// Longest line accepted, in bytes. A sentence is a few hundred bytes; a longer "line" is a
/// binary file, `/dev/zero` or a file without line ends, and reading it whole would take
/// memory without limit.
pub const MAX_LINE_BYTES: usize = 16 << 20;

/// Largest regular file read whole when opened (smaller than [`MAX_LINE_BYTES`], so no line
/// of it can be too long); larger files and streams are read a buffer at a time.
pub const WHOLE_FILE_BYTES: u64 = 1 << 20;

/// Reads lines one at a time into a caller-owned `String`, or as ranges of the whole text.
pub struct LineReader<R> {
    inner: R,
    name: String,
    line: usize,
    skip_lf: bool,
    buf: Vec<u8>,
    bom: bool,
    whole: Option<Whole>,
}

/// The whole text of a file, read or mapped; lines are ranges of it.
pub struct Text(Backing);

enum Backing {
    Read(String),
    /// Checked to be UTF-8 when mapped.
    Mapped(memmap2::Mmap),
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        match &self.0 {
            Backing::Read(text) => text,
            // SAFETY: checked in `with_map`; the file's stability is `open_mapped`'s contract.
            Backing::Mapped(map) => unsafe { std::str::from_utf8_unchecked(map) },
        }
    }
}

/// A file read whole: its text up to the first byte that is not UTF-8 (`bad`, if any), its
/// lines' byte ranges (found when it is opened, on whichever thread opens it, not in the
/// lock-step reading that follows), and the next line's index.
struct Whole {
    text: Arc<Text>,
    bad: Option<usize>,
    /// What to do about a bad byte on the first line (the text is cut at `bad`, so the
    /// byte-order mark that names the encoding is known only when it is read).
    first_line_advice: &'static str,
    lines: Vec<(u32, u32)>,
    next: usize,
}

/// The byte ranges of the lines of `bytes` (at most [`WHOLE_FILE_BYTES`]); a text cut at a
/// bad byte (`cut`) has a last line that ends where it was cut, even if empty.
fn line_ranges(bytes: &[u8], cut: bool) -> Vec<(u32, u32)> {
    let mut lines = Vec::new();
    let mut at = 0;
    let ends = LineEnds::new();
    while let Some(i) = ends.find(&bytes[at..]) {
        let end = at + i;
        lines.push((at as u32, end as u32));
        let crlf = bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n');
        at = end + 1 + usize::from(crlf);
    }
    if at < bytes.len() || cut {
        lines.push((at as u32, bytes.len() as u32));
    }
    lines
}

/// A search for `\n` or `\r` that needs no run-time CPU feature detection: on x86-64 the
/// SSE2 search, which every such CPU has. `memchr::memchr2` would first detect AVX2, and so
/// would simdutf8 (see [`ascii_or_utf8`]): that detection runs CPUID instructions, each a
/// trap to the hypervisor in a virtual machine (on the project's machine ~70 µs in all, 1.4%
/// of scoring a 1,300-line corpus), for a search that is a small part of the run.
struct LineEnds {
    #[cfg(target_arch = "x86_64")]
    sse2: memchr::arch::x86_64::sse2::memchr::Two,
    #[cfg(not(target_arch = "x86_64"))]
    all: memchr::arch::all::memchr::Two,
}

impl LineEnds {
    fn new() -> LineEnds {
        LineEnds {
            #[cfg(target_arch = "x86_64")]
            sse2: memchr::arch::x86_64::sse2::memchr::Two::new(b'\n', b'\r')
                .expect("every x86-64 CPU has SSE2"),
            #[cfg(not(target_arch = "x86_64"))]
            all: memchr::arch::all::memchr::Two::new(b'\n', b'\r'),
        }
    }

    fn find(&self, haystack: &[u8]) -> Option<usize> {
        #[cfg(target_arch = "x86_64")]
        return self.sse2.find(haystack);
        #[cfg(not(target_arch = "x86_64"))]
        return self.all.find(haystack);
    }
}

/// Whether `bytes` is UTF-8, checked a block at a time: a block of ASCII by std's ASCII
/// test, a few others by std's UTF-8 check, and once more than [`MIXED_BLOCKS`] blocks are
/// not ASCII (Chinese, say), the rest by simdutf8, many times faster than std on such text
/// but only after its CPU feature detection (see [`LineEnds`]), which an English corpus with
/// a few accented words need not pay.
fn ascii_or_utf8(bytes: &[u8]) -> bool {
    const BLOCK: usize = 4096;
    const MIXED_BLOCKS: usize = 8;
    let (mut at, mut mixed) = (0, 0);
    while at < bytes.len() {
        let end = (at + BLOCK).min(bytes.len());
        if bytes[at..end].is_ascii() {
            at = end;
            continue;
        }
        mixed += 1;
        if mixed > MIXED_BLOCKS {
            return simdutf8::basic::from_utf8(&bytes[at..]).is_ok();
        }
        // `at` is always where a character starts: after ASCII, after whole characters, or
        // at a character cut by the end of the block before, which this block starts with.
        match std::str::from_utf8(&bytes[at..end]) {
            Ok(_) => at = end,
            Err(e) if e.error_len().is_none() && end < bytes.len() => at += e.valid_up_to(),
            Err(_) => return false,
        }
    }
    true
}

impl<R: BufRead> LineReader<R> {
    pub fn new(inner: R, name: &str) -> Self {
        LineReader {
            inner,
            name: name.to_owned(),
            line: 0,
            skip_lf: false,
            buf: Vec::new(),
            bom: false,
            whole: None,
        }
    }

    /// Reads lines from `bytes`, the whole input, instead of from the inner reader.
    pub fn with_text(self, bytes: Vec<u8>) -> Self {
        let checked = match ascii_or_utf8(&bytes) {
            true => Ok(()),
            false => simdutf8::compat::from_utf8(&bytes).map(|_| ()),
        };
        let (text, bad) = match checked {
            // SAFETY: just checked.
            Ok(()) => (unsafe { String::from_utf8_unchecked(bytes) }, None),
            Err(e) => {
                let valid = e.valid_up_to();
                let advice = utf8_advice(1, &bytes);
                (
                    String::from_utf8_lossy(&bytes[..valid]).into_owned(),
                    Some((valid, advice)),
                )
            }
        };
        self.with_whole(Backing::Read(text), bad)
    }

    /// Reads lines from a mapped file; one that is not UTF-8 is copied, to report its first
    /// bad byte as a text read whole does.
    fn with_map(self, map: memmap2::Mmap) -> Self {
        match ascii_or_utf8(&map) {
            true => self.with_whole(Backing::Mapped(map), None),
            false => self.with_text(map.to_vec()),
        }
    }

    /// `bad`: the first byte that is not UTF-8, and the advice for it on the first line.
    fn with_whole(mut self, text: Backing, bad: Option<(usize, &'static str)>) -> Self {
        let text = Text(text);
        self.whole = Some(Whole {
            lines: line_ranges(text.as_bytes(), bad.is_some()),
            text: Arc::new(text),
            bad: bad.map(|(at, _)| at),
            first_line_advice: bad.map_or("", |(_, advice)| advice),
            next: 0,
        });
        self
    }

    /// The whole text, when the input was read whole ([`LineReader::with_text`]) or mapped.
    pub fn whole_text(&self) -> Option<&Arc<Text>> {
        self.whole.as_ref().map(|w| &w.text)
    }

    /// The next line as a range: of [`LineReader::whole_text`] when there is one, else of
    /// `out`, to which the line is appended. `None` at end of input.
    pub fn next_range(&mut self, out: &mut String) -> Result<Option<Range<usize>>, Error> {
        if self.whole.is_some() {
            return self.next_whole();
        }
        let start = out.len();
        Ok(self.append_line(out)?.then_some(start..out.len()))
    }

    /// The next line of the whole text: the same lines, byte-order mark and errors as a
    /// buffer at a time (a line is invalid exactly when it holds the text's first bad byte,
    /// since line ends are ASCII and never inside a character).
    fn next_whole(&mut self) -> Result<Option<Range<usize>>, Error> {
        let Some(w) = self.whole.as_mut() else {
            return Ok(None);
        };
        let Some(&(start, end)) = w.lines.get(w.next) else {
            return Ok(None);
        };
        w.next += 1;
        let (start, end) = (start as usize, end as usize);
        let bytes = w.text.as_bytes();
        self.line += 1;
        if self.line == 1 && bytes[start..end].starts_with(b"\xEF\xBB\xBF") {
            self.bom = true;
        }
        match w.bad {
            Some(bad) if end == bytes.len() => Err(Error::Utf8 {
                path: self.name.clone(),
                line: self.line,
                byte: bad - start + 1,
                advice: match self.line {
                    1 => w.first_line_advice,
                    line => utf8_advice(line, &[]),
                },
            }),
            _ => Ok(Some(start..end)),
        }
    }

    /// Lines not read yet, when the file was read whole or mapped (else unknown).
    pub fn lines_left(&self) -> Option<usize> {
        self.whole.as_ref().map(|w| w.lines.len() - w.next)
    }

    /// The file name given at creation.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of lines read so far.
    pub fn lines_read(&self) -> usize {
        self.line
    }

    /// Whether the first line started with a UTF-8 byte-order mark (kept as U+FEFF).
    pub fn had_bom(&self) -> bool {
        self.bom
    }

    /// Every line left, or the first error.
    pub fn into_lines(self) -> Result<Vec<String>, Error> {
        Ok(self.into_lines_and_bom()?.0)
    }

    /// Every line left and whether the first line started with a byte-order mark.
    pub fn into_lines_and_bom(mut self) -> Result<(Vec<String>, bool), Error> {
        let mut lines = Vec::new();
        let mut line = String::new();
        while self.next_line(&mut line)? {
            lines.push(std::mem::take(&mut line));
        }
        Ok((lines, self.bom))
    }

    /// Read the next line into `out` (cleared first). Returns `false` at end of input.
    pub fn next_line(&mut self, out: &mut String) -> Result<bool, Error> {
        out.clear();
        self.append_line(out)
    }

    /// Append the next line to `out`. Returns `false` at end of input.
    pub fn append_line(&mut self, out: &mut String) -> Result<bool, Error> {
        if self.whole.is_some() {
            let Some(range) = self.next_whole()? else {
                return Ok(false);
            };
            if let Some(w) = &self.whole {
                out.push_str(&w.text[range]);
            }
            return Ok(true);
        }
        self.buf.clear();
        let io_err = |source| Error::Open {
            path: self.name.clone(),
            source,
        };
        loop {
            let avail = match self.inner.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(io_err(e)),
            };
            if avail.is_empty() {
                if self.buf.is_empty() {
                    return Ok(false);
                }
                break;
            }
            if self.skip_lf {
                self.skip_lf = false;
                if avail[0] == b'\n' {
                    self.inner.consume(1);
                    continue;
                }
            }
            match memchr::memchr2(b'\n', b'\r', avail) {
                // The whole line is in the buffer: check it there and copy it once.
                Some(i) if self.buf.is_empty() => {
                    self.line += 1;
                    let line = &avail[..i];
                    if self.line == 1 && line.starts_with(b"\xEF\xBB\xBF") {
                        self.bom = true;
                    }
                    let text = utf8(line, &self.name, self.line)?;
                    out.push_str(text);
                    self.skip_lf = avail[i] == b'\r';
                    self.inner.consume(i + 1);
                    return Ok(true);
                }
                Some(i) => {
                    self.buf.extend_from_slice(&avail[..i]);
                    self.skip_lf = avail[i] == b'\r';
                    self.inner.consume(i + 1);
                    break;
                }
                None => {
                    let n = avail.len();
                    self.buf.extend_from_slice(avail);
                    self.inner.consume(n);
                }
            }
            if self.buf.len() > MAX_LINE_BYTES {
                return Err(Error::Format {
                    path: self.name.clone(),
                    line: self.line + 1,
                    message: format!(
                        "line is longer than {} MiB; is this a text file with one sentence per line?",
                        MAX_LINE_BYTES >> 20
                    ),
                });
            }
        }
        self.line += 1;
        if self.line == 1 && self.buf.starts_with(b"\xEF\xBB\xBF") {
            self.bom = true;
        }
        out.push_str(utf8(&self.buf, &self.name, self.line)?);
        Ok(true)
    }
}

/// `bytes` as text, or the error naming the file, line and first bad byte. simdutf8 gives
/// std's answer and error position, about 20 times faster on Chinese text.
fn utf8<'a>(bytes: &'a [u8], path: &str, line: usize) -> Result<&'a str, Error> {
    simdutf8::compat::from_utf8(bytes).map_err(|e| Error::Utf8 {
        path: path.to_owned(),
        line,
        byte: e.valid_up_to() + 1,
        advice: utf8_advice(line, bytes),
    })
}

/// What to do about a line that is not UTF-8: a first line starting with a UTF-16 or UTF-32
/// byte-order mark names its encoding; otherwise GB18030, the usual other encoding of GEC
/// data (Chinese corpora).
pub(crate) fn utf8_advice(line: usize, bytes: &[u8]) -> &'static str {
    const MARKS: [(&[u8], &str); 4] = [
        (b"\x00\x00\xFE\xFF", "the file is UTF-32 (big-endian byte-order mark); convert it with iconv -f UTF-32 -t UTF-8"),
        (b"\xFF\xFE\x00\x00", "the file is UTF-32 (little-endian byte-order mark); convert it with iconv -f UTF-32 -t UTF-8"),
        (b"\xFE\xFF", "the file is UTF-16 (big-endian byte-order mark); convert it with iconv -f UTF-16 -t UTF-8"),
        (b"\xFF\xFE", "the file is UTF-16 (little-endian byte-order mark); convert it with iconv -f UTF-16 -t UTF-8"),
    ];
    MARKS
        .iter()
        .find(|(mark, _)| line == 1 && bytes.starts_with(mark))
        .map_or(
            "re-encode the file as UTF-8 (e.g. iconv -f GB18030 -t UTF-8)",
            |(_, advice)| advice,
        )
}

/// Line `n` (1-based) of a file without the UTF-8 byte-order mark the first line may start
/// with (`next_line` keeps it as U+FEFF; structured formats drop it).
pub(crate) fn without_bom(n: usize, line: &str) -> &str {
    if n == 1 {
        line.strip_prefix('\u{feff}').unwrap_or(line)
    } else {
        line
    }
}

/// Read a whole file (or `-`) into lines, Python text-mode style.
pub fn read_lines(input: &Input) -> Result<Vec<String>, Error> {
    input.open()?.into_lines()
}

/// [`read_text`], but a non-empty regular file is mapped into memory rather than read (when
/// the system allows): a large file (a CoNLL-U parse) is neither copied nor faulted into
/// fresh memory. A file that is not UTF-8 is read, for [`read_text`]'s error.
///
/// # Safety
///
/// As [`Input::open_mapped`]: the file must not be changed while its text is in use.
pub unsafe fn map_text(input: &Input) -> Result<Text, Error> {
    if let Input::Path(p) = input {
        let file = File::open(p)
            .ok()
            .filter(|f| f.metadata().is_ok_and(|m| m.is_file() && m.len() > 0));
        // SAFETY: the caller takes on the file's stability.
        let map = file.and_then(|f| unsafe { memmap2::Mmap::map(&f) }.ok());
        if let Some(map) = map.filter(|m| ascii_or_utf8(m)) {
            return Ok(Text(Backing::Mapped(map)));
        }
    }
    read_text(input).map(|text| Text(Backing::Read(text)))
}

/// A whole file (or `-`) as one UTF-8 text, for formats read whole (M2, JSON, XML). Not
/// UTF-8 is the same error as a line file's: the line, the byte within it, and what to do.
pub fn read_text(input: &Input) -> Result<String, Error> {
    let mut bytes = Vec::new();
    let read = match input {
        Input::Path(p) => File::open(p).and_then(|mut f| f.read_to_end(&mut bytes)),
        Input::Stdin => io::stdin().lock().read_to_end(&mut bytes),
    };
    read.map_err(|source| Error::Open {
        path: input.name().to_owned(),
        source,
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let at = e.utf8_error().valid_up_to();
        let start = bytes[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line = bytes[..start].iter().filter(|&&b| b == b'\n').count() + 1;
        Error::Utf8 {
            path: input.name().to_owned(),
            line,
            byte: at - start + 1,
            advice: utf8_advice(line, &bytes[start..]),
        }
    })
}

/// Read all of `r` as lines (for tests and in-memory data).
pub fn lines_of<T: Read>(r: T, name: &str) -> Result<Vec<String>, Error> {
    LineReader::new(BufReader::new(r), name).into_lines()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(bytes: &[u8]) -> Vec<String> {
        lines_of(bytes, "t").unwrap()
    }

    #[test]
    fn python_universal_newlines() {
        assert_eq!(lines(b""), Vec::<String>::new());
        assert_eq!(lines(b"a"), ["a"]);
        assert_eq!(lines(b"a\n"), ["a"]);
        assert_eq!(lines(b"a\n\n"), ["a", ""]);
        assert_eq!(lines(b"a\r\nb\rc\n"), ["a", "b", "c"]);
        assert_eq!(lines(b"a\r\r\nb"), ["a", "", "b"]);
        assert_eq!(lines(b"a  \t\nb "), ["a  \t", "b "]);
        assert_eq!(lines(b"\n"), [""]);
    }

    #[test]
    fn utf8_checked_by_blocks_as_std_checks_it() {
        let mut cases: Vec<Vec<u8>> = vec![Vec::new(), b"plain".to_vec(), vec![b'a'; 9000]];
        // A character cut by a block's end, at every offset, then the same texts broken.
        for pad in 4090..4100 {
            for c in ["é", "猫", "😀"] {
                let mut text = vec![b'a'; pad];
                text.extend_from_slice(c.as_bytes());
                text.extend_from_slice(b"b");
                cases.push(text.clone());
                cases.push(text[..text.len() - 2].to_vec());
                let mut bad = text.clone();
                bad[pad + 1] = b'a';
                cases.push(bad);
            }
        }
        // More blocks that are not ASCII than the count checked by std: simdutf8's part.
        let chinese = "漢字かな交じり文".repeat(1500);
        cases.push(chinese.as_bytes().to_vec());
        let mut broken = chinese.as_bytes().to_vec();
        broken.push(0xFF);
        cases.push(broken);
        let mut late = vec![b'a'; 20000];
        late.push(0xC3);
        cases.push(late);
        for text in &cases {
            assert_eq!(
                ascii_or_utf8(text),
                std::str::from_utf8(text).is_ok(),
                "{} bytes",
                text.len()
            );
        }
    }

    #[test]
    fn crlf_split_across_buffer_boundary() {
        let data = b"ab\r\ncd\r\n";
        let r = LineReader::new(BufReader::with_capacity(3, &data[..]), "t");
        assert_eq!(r.into_lines().unwrap(), ["ab", "cd"]);
    }

    /// Every line, the BOM flag and the error (if any) of `data` read through a buffer of
    /// `capacity` bytes, appending to one string as a batch does.
    fn read_appending(data: &[u8], capacity: usize) -> (Vec<String>, bool, Option<String>) {
        let mut r = LineReader::new(BufReader::with_capacity(capacity, data), "t");
        let (mut all, mut ends) = (String::new(), vec![0]);
        let error = loop {
            match r.append_line(&mut all) {
                Ok(true) => ends.push(all.len()),
                Ok(false) => break None,
                Err(e) => break Some(e.to_string()),
            }
        };
        let lines = ends
            .windows(2)
            .map(|w| all[w[0]..w[1]].to_owned())
            .collect();
        (lines, r.had_bom(), error)
    }

    /// The same through [`LineReader::next_range`] on `data` read whole.
    fn read_whole(data: &[u8]) -> (Vec<String>, bool, Option<String>) {
        let mut r = LineReader::new(io::empty(), "t").with_text(data.to_vec());
        let mut lines = vec![];
        let error = loop {
            match r.next_range(&mut String::new()) {
                Ok(Some(range)) => lines.push(r.whole_text().unwrap()[range].to_owned()),
                Ok(None) => break None,
                Err(e) => break Some(e.to_string()),
            }
        };
        (lines, r.had_bom(), error)
    }

    proptest::proptest! {
        /// Lines found whole in the buffer take the one-copy path, others are assembled
        /// across refills, or are ranges of a text read whole: all give the lines, BOM and
        /// errors of Python's text mode.
        #[test]
        fn any_buffer_size_reads_the_same_lines(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    &b"a"[..], b"bc", b"\n", b"\r", b"\r\n", b"\xC3\xA9", b"\xEF\xBB\xBF", b"\xFF", b" ",
                ]),
                0..40,
            ),
            capacity in 1usize..12,
        ) {
            let data: Vec<u8> = parts.concat();
            proptest::prop_assert_eq!(read_appending(&data, capacity), read_appending(&data, 1 << 16));
            proptest::prop_assert_eq!(read_whole(&data), read_appending(&data, 1 << 16));
            if let (lines, _, None) = read_appending(&data, capacity) {
                proptest::prop_assert_eq!(lines, lines_of(&data[..], "t").unwrap());
            }
        }
    }

    proptest::proptest! {
        /// The UTF-8 check accepts and rejects what std does, at the same byte, on texts long
        /// enough for its SIMD path (64-byte blocks), bad bytes anywhere.
        #[test]
        fn utf8_check_matches_std(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    &b"ab"[..], "\u{e9}".as_bytes(), "\u{4e2d}\u{6587}".as_bytes(),
                    "\u{1f600}".as_bytes(), b"\xFF", b"\xE4\xB8", b"\xC0\xAF", b"\xED\xA0\x80",
                    b"\xF4\x90\x80\x80",
                ]),
                0..120,
            ),
            good in 0usize..120,
        ) {
            // The first `good` parts keep only valid characters, so errors come late too.
            let data: Vec<u8> = parts
                .iter()
                .enumerate()
                .filter(|(i, p)| *i >= good || std::str::from_utf8(p).is_ok())
                .flat_map(|(_, p)| p.iter().copied())
                .collect();
            let ours = match utf8(&data, "t", 1) {
                Ok(text) => Ok(text.len()),
                Err(Error::Utf8 { byte, .. }) => Err(byte),
                Err(e) => panic!("{e}"),
            };
            let std = std::str::from_utf8(&data).map(str::len).map_err(|e| e.valid_up_to() + 1);
            proptest::prop_assert_eq!(ours, std);
        }
    }

    #[test]
    fn bom_is_kept_like_python() {
        let mut r = LineReader::new(&b"\xEF\xBB\xBFhi\nthere"[..], "t");
        let mut s = String::new();
        assert!(r.next_line(&mut s).unwrap());
        assert_eq!(s, "\u{feff}hi");
        assert!(r.had_bom());
    }

    #[test]
    fn invalid_utf8_names_file_and_line() {
        let err = lines_of(&b"ok\nbad \xff here\n"[..], "sys.txt")
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("sys.txt:2: invalid UTF-8 at byte 5"),
            "{err}"
        );
        assert!(err.ends_with("(e.g. iconv -f GB18030 -t UTF-8)"), "{err}");
    }

    #[test]
    fn utf16_and_utf32_files_are_named_as_such() {
        let dir = tempfile::tempdir().unwrap();
        let cases: [(&[u8], &str); 4] = [
            (b"\xFF\xFEa\x00\n\x00", "UTF-16 (little-endian"),
            (b"\xFE\xFF\x00a\x00\n", "UTF-16 (big-endian"),
            (b"\xFF\xFE\x00\x00a\x00\x00\x00", "UTF-32 (little-endian"),
            (b"\x00\x00\xFE\xFF\x00\x00\x00a", "UTF-32 (big-endian"),
        ];
        for (k, (bytes, want)) in cases.into_iter().enumerate() {
            // Streamed, read whole, mapped, and as one text: the same advice.
            let streamed = lines_of(bytes, "u.txt").unwrap_err().to_string();
            let path = dir.path().join(format!("u{k}.txt"));
            std::fs::write(&path, bytes).unwrap();
            let input = Input::parse(path.to_str().unwrap());
            let whole = read_lines(&input).unwrap_err().to_string();
            let text = read_text(&input).unwrap_err().to_string();
            for err in [streamed, whole, text] {
                assert!(err.contains(want) && err.contains("iconv -f UTF-"), "{err}");
                assert!(!err.contains("GB18030"), "{err}");
            }
        }
        // A UTF-16 mark further down is just a bad byte.
        let later = lines_of(&b"ok\n\xFF\xFEa\n"[..], "u.txt")
            .unwrap_err()
            .to_string();
        assert!(later.contains("GB18030"), "{later}");
    }

    #[test]
    fn read_text_names_the_line_and_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("gold.m2");
        std::fs::write(&path, b"S a\n\nS b \xff\n").unwrap();
        let err = read_text(&Input::parse(path.to_str().unwrap()))
            .unwrap_err()
            .to_string();
        assert!(err.contains("gold.m2:3: invalid UTF-8 at byte 5"), "{err}");
    }

    #[test]
    fn a_mapped_text_is_the_text_read() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.conllu");
        std::fs::write(&bad, b"S a\n\nS b \xff\n").unwrap();
        let good = dir.path().join("good.conllu");
        let text = "\u{feff}1\tal\u{e9}\n".repeat(100_000);
        std::fs::write(&good, &text).unwrap();
        let empty = dir.path().join("empty.conllu");
        std::fs::write(&empty, "").unwrap();
        let missing = dir.path().join("missing.conllu");
        for path in [&bad, &good, &empty, &missing, &dir.path().to_path_buf()] {
            let input = Input::parse(path.to_str().unwrap());
            // SAFETY: nothing changes the file while the test runs.
            let mapped = unsafe { map_text(&input) }.map(|t| t.to_string());
            let read = read_text(&input);
            assert_eq!(
                mapped.map_err(|e| e.to_string()),
                read.map_err(|e| e.to_string()),
                "{path:?}"
            );
        }
    }

    #[test]
    fn an_endless_line_is_refused_not_read_whole() {
        let endless = io::repeat(b'x').take(MAX_LINE_BYTES as u64 + (1 << 20));
        let err = lines_of(endless, "zero").unwrap_err().to_string();
        assert!(
            err.starts_with("zero:1: line is longer than 16 MiB"),
            "{err}"
        );
    }

    /// A small file is read whole (or mapped), a larger one a buffer at a time, with the same
    /// lines; a line after the first bad byte of a whole file is never reached.
    #[test]
    fn small_files_are_read_whole() {
        let dir = std::env::temp_dir().join(format!("green-io-whole-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let small = dir.join("small.txt");
        let large = dir.join("large.txt");
        let line = "a line\r\n";
        std::fs::write(&small, line.repeat(10)).unwrap();
        let count = WHOLE_FILE_BYTES as usize / line.len() + 1;
        std::fs::write(&large, line.repeat(count)).unwrap();
        for (path, lines, whole) in [(&small, 10, true), (&large, count, false)] {
            let input = Input::parse(path.to_str().unwrap());
            assert_eq!(input.open().unwrap().whole_text().is_some(), whole);
            // SAFETY: the test's own files, not changed while open.
            let mapped = unsafe { input.open_mapped() }.unwrap();
            assert_eq!(mapped.whole_text().is_some(), whole);
            for mut reader in [input.open().unwrap(), mapped] {
                // Only a file held whole knows how many lines are left.
                assert_eq!(reader.lines_left(), whole.then_some(lines));
                let mut line = String::new();
                assert!(reader.next_line(&mut line).unwrap());
                assert_eq!(reader.lines_left(), whole.then_some(lines - 1));
                let got = reader.into_lines().unwrap();
                assert_eq!(got.len(), lines - 1);
                assert!(got.iter().all(|l| l == "a line"));
            }
        }
        std::fs::write(&small, b"ok\nbad \xff\nok\n").unwrap();
        let input = Input::parse(small.to_str().unwrap());
        // SAFETY: as above.
        let mapped = unsafe { input.open_mapped() }.unwrap();
        for reader in [input.open().unwrap(), mapped] {
            let err = reader.into_lines().unwrap_err();
            assert!(
                err.to_string().contains(":2: invalid UTF-8 at byte 5"),
                "{err}"
            );
        }
        let empty = dir.join("empty.txt");
        std::fs::write(&empty, b"").unwrap();
        // SAFETY: as above.
        let reader = unsafe { Input::parse(empty.to_str().unwrap()).open_mapped() }.unwrap();
        assert!(reader.into_lines().unwrap().is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_file_is_a_clear_error() {
        let err = read_lines(&Input::parse("/no/such/file.txt"))
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("cannot read /no/such/file.txt: "), "{err}");
    }
}
