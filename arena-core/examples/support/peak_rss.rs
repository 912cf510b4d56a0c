//! The process's peak resident size, for the examples that print it.

/// The process's peak resident size in bytes, from `getrusage`.
#[cfg(unix)]
pub fn peak_rss() -> Option<u64> {
    let mut usage = std::mem::MaybeUninit::<libc::rusage>::uninit();
    // SAFETY: `getrusage` fills the `rusage` it is given when it returns 0; it is read only then.
    let usage = unsafe {
        if libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) != 0 {
            return None;
        }
        usage.assume_init()
    };
    let max = u64::try_from(usage.ru_maxrss).ok()?;
    // Linux counts in KiB, macOS in bytes.
    Some(if cfg!(target_os = "macos") {
        max
    } else {
        max * 1024
    })
}

/// The process's peak resident size: not known on this platform.
#[cfg(not(unix))]
pub fn peak_rss() -> Option<u64> {
    None
}

/// `bytes` in MiB.
pub fn mib(bytes: u64) -> f64 {
    bytes as f64 / f64::from(1 << 20)
}
