//! Files read in lock step, a batch of rows at a time, one batch ahead on a reader thread.
//!
//! Corpus scoring streams: memory must not grow with the corpus, and reading should overlap
//! counting. [`Batches`] reads row `i` of every file (source, references, systems) together;
//! a reader thread fills the next batch, at most [`BATCH_LINES`] rows or [`BATCH_BYTES`] of
//! text, while the caller counts the current one, and spent batches come back for reuse. The
//! CLI and the Python bindings both stream through it. A shard of a corpus is a range of rows
//! ([`Batches::spawn_rows`]): the rows before it are read and dropped on the reader thread.
//!
//! The lines of a file read whole ([`crate::WHOLE_FILE_BYTES`]) are not copied: a batch
//! holds ranges of its text. When every file was read whole there is nothing left to overlap
//! (a batch is a split into lines), so batches are made on the caller's thread, without
//! starting one.

use std::io::BufRead;
use std::ops::Range;
use std::sync::mpsc::{self, Receiver, Sender, SyncSender};
use std::sync::Arc;
use std::thread::JoinHandle;

use crate::{Error, LineReader, Text};

/// Rows per batch, at most.
pub const BATCH_LINES: usize = 4096;
/// Rows per batch, at most, of [`Batches::small`].
pub const SMALL_LINES: usize = 256;
/// Bytes of text per batch, at most (a batch ends at the row that reaches it): with long lines
/// or many files a batch holds fewer rows, so memory stays flat in both.
pub const BATCH_BYTES: usize = 2 << 20;

/// A line reader over any file or stream.
pub type Reader = LineReader<Box<dyn BufRead + Send>>;

/// Rows of lines, one line of every file per row, in one buffer. Dropping a batch hands its
/// buffers back to the reader for the next one.
pub struct Batch {
    lines: Lines,
    files: usize,
    home: Sender<Lines>,
}

/// A batch's lines, row-major: where each lies, in its file's whole text when the file was
/// read whole, else in `text`, where the lines of the other files are copied.
#[derive(Default)]
struct Lines {
    text: String,
    spans: Vec<(usize, usize)>,
    whole: Vec<Option<Arc<Text>>>,
}

impl Lines {
    fn clear(&mut self) {
        self.text.clear();
        self.spans.clear();
        self.whole.clear();
    }
}

impl Drop for Batch {
    fn drop(&mut self) {
        let _ = self.home.send(std::mem::take(&mut self.lines));
    }
}

impl Batch {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.lines.spans.len() / self.files
    }

    pub fn is_empty(&self) -> bool {
        self.lines.spans.is_empty()
    }

    /// Every line, row after row: line `row * files + f` is row `row`'s line of file `f`.
    pub fn lines(&self) -> impl Iterator<Item = &str> {
        let Lines { text, spans, whole } = &self.lines;
        // Each file's text is found once, not once a line.
        let texts: Vec<&str> = (whole.iter())
            .map(|w| w.as_deref().map_or(text.as_str(), |w| w))
            .collect();
        (spans.iter())
            .zip((0..self.files).cycle())
            .map(move |(&(start, end), f)| {
                let text: &str = texts[f];
                &text[start..end]
            })
    }
}

/// The batches of files read in lock step (an iterator), read one batch ahead.
pub struct Batches {
    reading: Reading,
    recycle: Sender<Lines>,
    files: usize,
}

/// Where batches come from: a reader thread, or the rows themselves when every file is in
/// memory.
enum Reading {
    Thread {
        received: Receiver<Result<Lines, Error>>,
        reader: JoinHandle<Vec<Reader>>,
    },
    Here {
        source: Source,
        recycled: Receiver<Lines>,
        progress: Box<dyn Fn(u64) + Send>,
    },
}

/// The files, the rows of the range still to skip and to read, and whether the files ended.
struct Source {
    readers: Vec<Reader>,
    skip: usize,
    left: usize,
    ended: bool,
    /// Rows per batch, at most.
    rows: usize,
}

impl Source {
    /// The next batch, read into `lines`; `None` once the range or the files end, and after
    /// an error.
    fn next(&mut self, mut lines: Lines, progress: &dyn Fn(u64)) -> Option<Result<Lines, Error>> {
        if self.ended {
            return None;
        }
        match self.fill(&mut lines, progress) {
            Ok(0) => {
                self.ended = true;
                None
            }
            Ok(_) => Some(Ok(lines)),
            Err(e) => {
                self.ended = true;
                Some(Err(e))
            }
        }
    }

    /// Skips to the range (those rows are checked, not kept), then reads the next batch;
    /// returns its number of rows.
    fn fill(&mut self, lines: &mut Lines, progress: &dyn Fn(u64)) -> Result<usize, Error> {
        while self.skip > 0 {
            self.skip -= 1;
            lines.clear();
            if read_batch(&mut self.readers, lines, 1, progress)?.1 {
                return Ok(0);
            }
        }
        lines.clear();
        let (read, end) = read_batch(&mut self.readers, lines, self.left.min(self.rows), progress)?;
        self.left -= read;
        lines.spans.truncate(read * self.readers.len());
        self.ended = end || self.left == 0;
        Ok(read)
    }
}

impl Batches {
    /// Starts reading `readers` in lock step; `progress` hears the bytes of each row's first
    /// file (plus its newline) as the row is read.
    pub fn spawn(readers: Vec<Reader>, progress: impl Fn(u64) + Send + 'static) -> Batches {
        Batches::spawn_rows(readers, 0..usize::MAX, progress)
    }

    /// [`Batches::spawn`] for rows `rows` only (0-based, end exclusive, as Python's
    /// `islice`): the files are read up to the end of the range, or to their end if shorter.
    /// Rows before the range are checked (UTF-8, equal line counts) but not kept.
    pub fn spawn_rows(
        readers: Vec<Reader>,
        rows: Range<usize>,
        progress: impl Fn(u64) + Send + 'static,
    ) -> Batches {
        let files = readers.len();
        let here = readers.iter().all(|r| r.whole_text().is_some());
        let source = Source {
            readers,
            skip: rows.start,
            left: rows.end.saturating_sub(rows.start),
            ended: false,
            rows: BATCH_LINES,
        };
        let (recycle, recycled) = mpsc::channel();
        let reading = if here {
            Reading::Here {
                source,
                recycled,
                progress: Box::new(progress),
            }
        } else {
            let (batches, received) = mpsc::sync_channel(2);
            let reader =
                std::thread::spawn(move || read_all(source, &batches, &recycled, &progress));
            Reading::Thread { received, reader }
        };
        Batches {
            reading,
            recycle,
            files,
        }
    }

    /// The same rows in batches of at most [`SMALL_LINES`] where every file is in memory, for
    /// a caller that counts on one thread. Such batches overlap no reading and share no work,
    /// so smaller ones cost nothing, and what a batch spans (a few dozen bytes a row and file)
    /// stays within pages already touched: each first touch of a page is a fault (47 fewer on
    /// a 1,300-line corpus of four files). A pool of several threads keeps the full batches:
    /// each is a hand-off that wakes the others.
    pub fn small(mut self) -> Batches {
        if let Reading::Here { source, .. } = &mut self.reading {
            source.rows = SMALL_LINES;
        }
        self
    }

    /// Waits for the reader thread and gives the readers back (their names, lines read and
    /// byte-order marks). After an error, or when the batches were not all taken, the files
    /// are not read to the end.
    pub fn finish(self) -> Result<Vec<Reader>, Error> {
        match self.reading {
            Reading::Here { source, .. } => Ok(source.readers),
            Reading::Thread { received, reader } => {
                drop(received);
                reader
                    .join()
                    .map_err(|_| Error::Other("the file reader thread panicked".into()))
            }
        }
    }
}

impl Iterator for Batches {
    type Item = Result<Batch, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let next = match &mut self.reading {
            Reading::Here {
                source,
                recycled,
                progress,
            } => source.next(recycled.try_recv().unwrap_or_default(), progress),
            Reading::Thread { received, .. } => received.recv().ok(),
        };
        let files = self.files;
        next.map(|r| {
            r.map(|lines| Batch {
                lines,
                files,
                home: self.recycle.clone(),
            })
        })
    }
}

/// The reader thread: fills batches until the range or the files end, an error, or nobody
/// listens.
fn read_all(
    mut source: Source,
    batches: &SyncSender<Result<Lines, Error>>,
    recycled: &Receiver<Lines>,
    progress: &dyn Fn(u64),
) -> Vec<Reader> {
    while let Some(batch) = source.next(recycled.try_recv().unwrap_or_default(), progress) {
        if batches.send(batch).is_err() {
            break;
        }
    }
    source.readers
}

/// Reads up to `limit` rows (those left, or fewer for [`Batches::small`]), at most
/// [`BATCH_LINES`] or [`BATCH_BYTES`] of text, into `lines` (row-major). Returns the number
/// of complete rows and whether the files ended; fails if they end at different lines.
fn read_batch(
    readers: &mut [Reader],
    lines: &mut Lines,
    limit: usize,
    progress: &dyn Fn(u64),
) -> Result<(usize, bool), Error> {
    let files = readers.len();
    lines.whole = readers.iter().map(|r| r.whole_text().cloned()).collect();
    let rows = BATCH_LINES.min(limit);
    // Files read whole know their line count: one allocation, not a doubling series (one
    // row more for the row of ends that tells the files ended).
    let known = readers.iter().filter_map(|r| r.lines_left()).min();
    lines
        .spans
        .reserve(files * known.map_or(rows, |k| k.min(rows) + 1));
    let mut bytes = 0;
    for row in 0..rows {
        if bytes >= BATCH_BYTES {
            return Ok((row, false));
        }
        let mut got = 0;
        for reader in readers.iter_mut() {
            let span = match reader.next_range(&mut lines.text)? {
                Some(range) => {
                    got += 1;
                    bytes += range.len();
                    (range.start, range.end)
                }
                None => (0, 0),
            };
            lines.spans.push(span);
        }
        if got == 0 {
            return Ok((row, true));
        }
        if got < files {
            return Err(line_count_mismatch(readers));
        }
        let (start, end) = lines.spans[lines.spans.len() - files];
        progress((end - start) as u64 + 1);
    }
    Ok((rows, false))
}

/// Counts what is left of every file and names the first whose length differs from the first.
fn line_count_mismatch(readers: &mut [Reader]) -> Error {
    let mut line = String::new();
    let mut counts = Vec::with_capacity(readers.len());
    for r in readers.iter_mut() {
        loop {
            match r.next_line(&mut line) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => return e,
            }
        }
        counts.push(r.lines_read());
    }
    let odd = (1..readers.len())
        .find(|&i| counts[i] != counts[0])
        .unwrap_or(0);
    Error::Other(format!(
        "line count mismatch: {} has {} lines but {} has {}; every file needs exactly one line per source sentence",
        readers[0].name(),
        counts[0],
        readers[odd].name(),
        counts[odd]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reader(name: &str, text: &str) -> Reader {
        LineReader::new(
            Box::new(std::io::Cursor::new(text.as_bytes().to_vec())),
            name,
        )
    }

    /// A reader of `text` read whole, whose lines are ranges of it.
    fn whole(name: &str, text: &str) -> Reader {
        whole_bytes(name, text.as_bytes())
    }

    fn whole_bytes(name: &str, bytes: &[u8]) -> Reader {
        let empty: Box<dyn BufRead + Send> = Box::new(std::io::empty());
        LineReader::new(empty, name).with_text(bytes.to_vec())
    }

    type Rows = Vec<Vec<String>>;

    /// A batch's lines, a row at a time.
    fn rows_of(batch: &Batch) -> Rows {
        let lines: Vec<String> = batch.lines().map(str::to_owned).collect();
        assert_eq!(lines.len(), batch.len() * batch.files);
        lines.chunks(batch.files).map(<[String]>::to_vec).collect()
    }

    /// Every batch's rows, and how the reading ended.
    fn read(readers: Vec<Reader>) -> (Vec<Rows>, Result<Vec<Reader>, Error>) {
        let mut batches = Batches::spawn(readers, |_| {});
        let mut out = Vec::new();
        for batch in batches.by_ref() {
            match batch {
                Ok(batch) => out.push(rows_of(&batch)),
                Err(e) => return (out, Err(e)),
            }
        }
        (out, batches.finish())
    }

    #[test]
    fn small_batches_hold_the_same_rows_where_the_files_are_in_memory() {
        let many: String = (0..1000).map(|i| format!("{i}\n")).collect();
        let small = |readers: Vec<Reader>| {
            let batches = Batches::spawn(readers, |_| {}).small();
            let out: Vec<Rows> = batches.map(|b| rows_of(&b.unwrap())).collect();
            out
        };
        let batches = small(vec![whole("a", &many), whole("b", &many)]);
        let sizes: Vec<usize> = batches.iter().map(Vec::len).collect();
        assert_eq!(sizes, [256, 256, 256, 232]);
        let (full, _) = read(vec![whole("a", &many), whole("b", &many)]);
        assert_eq!(full.len(), 1);
        assert_eq!(batches.concat(), full.concat());
        // Files read a buffer at a time keep the reader thread's full batches.
        let batches = small(vec![reader("a", &many), whole("b", &many)]);
        assert_eq!(batches.len(), 1);
        assert_eq!(batches.concat(), full.concat());
    }

    #[test]
    fn rows_come_in_order_in_batches_of_lines_and_of_bytes() {
        let many: String = (0..10_000).map(|i| format!("{i}\n")).collect();
        let (batches, readers) = read(vec![reader("a", &many), reader("b", &many)]);
        let sizes: Vec<usize> = batches.iter().map(Vec::len).collect();
        assert_eq!(sizes, [4096, 4096, 1808]);
        let rows: Vec<&Vec<String>> = batches.iter().flatten().collect();
        assert!(rows
            .iter()
            .enumerate()
            .all(|(i, r)| r[0] == i.to_string() && r[1] == r[0]));
        assert_eq!(readers.unwrap()[1].lines_read(), 10_000);

        // 1 MiB lines: two rows of two files reach 2 MiB.
        let long = format!("{}\n", "x".repeat(1 << 20)).repeat(5);
        let (batches, _) = read(vec![reader("a", &long), reader("b", &long)]);
        let sizes: Vec<usize> = batches.iter().map(Vec::len).collect();
        assert_eq!(sizes, [1, 1, 1, 1, 1]);
    }

    /// Files read whole and streamed mix in one batch: the same rows, batches and errors.
    #[test]
    fn files_read_whole_give_the_same_batches() {
        let many: String = (0..10_000).map(|i| format!("{i}\r\n")).collect();
        let long = format!("{}\n", "x".repeat(1 << 20)).repeat(3);
        for text in [&many, &long] {
            let streamed = read(vec![reader("a", text), reader("b", text)]).0;
            let mixed = read(vec![whole("a", text), reader("b", text)]).0;
            let both = read(vec![whole("a", text), whole("b", text)]).0;
            assert_eq!(mixed, streamed);
            assert_eq!(both, streamed);
        }
        let (_, end) = read(vec![whole("src", "a\nb\nc"), reader("hyp", "a\nb\n")]);
        let e = end.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("src has 3 lines but hyp has 2"), "{e}");
        let (rows, end) = read(vec![whole("src", "a\nb\n"), whole_bytes("hyp", b"a\n\xC3")]);
        assert!(rows.is_empty());
        let e = end.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("hyp:2: invalid UTF-8 at byte 1"), "{e}");
    }

    /// Rows `a..b` of a shard are exactly those rows of the whole, in batches, from files
    /// streamed (a reader thread) or read whole (no thread).
    #[test]
    fn a_range_of_rows_is_those_rows() {
        let many: String = (0..10_000).map(|i| format!("{i}\n")).collect();
        let cases = [
            (0..10_000, vec![4096, 4096, 1808]),
            (5000..9000, vec![4000]),
            (4095..8193, vec![4096, 2]),
            (9999..20_000, vec![1]),
            (10_000..20_000, vec![]),
            (3..3, vec![]),
        ];
        let open: [fn(&str, &str) -> Reader; 2] = [reader, whole];
        for ((range, sizes), open) in cases.iter().flat_map(|c| open.iter().map(move |o| (c, o))) {
            let readers = vec![open("a", &many), open("b", &many)];
            let mut batches = Batches::spawn_rows(readers, range.clone(), |_| {});
            let got: Vec<Rows> = batches.by_ref().map(|b| rows_of(&b.unwrap())).collect();
            batches.finish().unwrap();
            assert_eq!(
                got.iter().map(Vec::len).collect::<Vec<_>>(),
                *sizes,
                "{range:?}"
            );
            let first: Vec<String> = got.iter().flatten().map(|r| r[0].clone()).collect();
            let want: Vec<String> = range
                .clone()
                .take_while(|&i| i < 10_000)
                .map(|i| i.to_string())
                .collect();
            assert_eq!(first, want, "{range:?}");
        }
        // Files of different lengths are found while skipping too.
        for open in open {
            let readers = vec![open("src", "a\nb\nc\n"), open("hyp", "a\n")];
            let mut batches = Batches::spawn_rows(readers, 2..3, |_| {});
            let e = batches.next().unwrap().err().map(|e| e.to_string());
            assert!(e
                .unwrap_or_default()
                .contains("src has 3 lines but hyp has 1"));
            assert!(batches.next().is_none());
        }
    }

    #[test]
    fn files_of_different_lengths_are_an_error_naming_both() {
        let (_, end) = read(vec![reader("src", "a\nb\nc\n"), reader("hyp", "a\nb\n")]);
        let e = end.err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("src has 3 lines but hyp has 2"), "{e}");
        let (batches, end) = read(vec![reader("src", ""), reader("hyp", "")]);
        assert!(batches.is_empty() && end.is_ok());
    }
}
