//! Opening the line files of a scoring run: small regular files are mapped into memory, not
//! read ([`green_io::Input::open_mapped`]), so nothing is copied and no fresh memory is
//! faulted in; on a 1,300-line corpus that was a tenth of the whole run. The one thing a map
//! adds that can go wrong, a file truncated while green reads it, gives one error line and
//! exit status 1, not a crash.

use green_io::{Error, Input, Reader};
use rayon::prelude::*;

/// Opens every input on the pool; the first error in file order is the one returned.
pub fn open_all(inputs: &[Input]) -> Result<Vec<Reader>, Error> {
    report_truncation();
    // SAFETY: green does not write its inputs; a file truncated by another process while
    // mapped raises SIGBUS, which `report_truncation` turns into an error line and exit 1.
    let opened: Vec<_> = inputs
        .par_iter()
        .map(|input| unsafe { input.open_mapped() })
        .collect();
    opened.into_iter().collect()
}

/// Reading a page of a mapped file that was cut off raises SIGBUS: say so and exit 1.
#[cfg(unix)]
fn report_truncation() {
    extern "C" fn truncated(_: libc::c_int) {
        const MESSAGE: &[u8] = b"green: error: an input file was truncated while green was reading it; score it again once the file is complete\n";
        // SAFETY: write and _exit are async-signal-safe.
        unsafe {
            libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
            libc::_exit(1);
        }
    }
    // SAFETY: installs a handler that only calls async-signal-safe functions.
    unsafe {
        libc::signal(libc::SIGBUS, truncated as *const () as libc::sighandler_t);
    }
}

#[cfg(not(unix))]
fn report_truncation() {}
