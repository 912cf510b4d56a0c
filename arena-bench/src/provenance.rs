//! Where and when a run happened, for its reports: the date (UTC), the CPU, its logical cores,
//! the memory, the OS and the compiler that built the benchmark.

/// The compiler that built this binary (`rustc --version`, recorded by the build script).
pub const RUSTC: &str = env!("ARENA_BENCH_RUSTC_VERSION");

/// The CPU model, from `/proc/cpuinfo`.
#[must_use]
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines().find_map(|l| {
                l.strip_prefix("model name")?
                    .split(':')
                    .nth(1)
                    .map(|m| m.trim().to_owned())
            })
        })
        .unwrap_or_else(|| "unknown CPU".to_owned())
}

/// Logical CPUs this process may use.
#[must_use]
pub fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The machine's memory in bytes (`MemTotal` of `/proc/meminfo`), or 0 off Linux.
#[must_use]
pub fn memory_bytes() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|info| {
            let kb = info.lines().find_map(|l| l.strip_prefix("MemTotal:"))?;
            kb.trim().trim_end_matches("kB").trim().parse::<u64>().ok()
        })
        .map_or(0, |kb| kb * 1024)
}

/// The OS and, on Linux, the kernel's release (`linux 6.1.0`).
#[must_use]
pub fn os() -> String {
    let release = std::fs::read_to_string("/proc/sys/kernel/osrelease").unwrap_or_default();
    format!("{} {}", std::env::consts::OS, release.trim())
        .trim()
        .to_owned()
}

/// The current time as `YYYY-MM-DD HH:MM UTC`.
#[must_use]
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    utc_date(secs)
}

/// `secs` seconds after the Unix epoch as `YYYY-MM-DD HH:MM UTC`, in the proleptic Gregorian
/// calendar (Howard Hinnant's `civil_from_days`).
#[must_use]
pub fn utc_date(secs: u64) -> String {
    let days = secs / 86_400;
    let minutes = secs % 86_400 / 60;
    // Days since 0000-03-01, so that a leap day ends its year; eras are 400 years long.
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        minutes / 60,
        minutes % 60
    )
}

#[cfg(test)]
mod tests {
    use super::utc_date;

    #[test]
    fn dates_match_the_calendar() {
        // Checked with `date -u -d @SECS`.
        assert_eq!(utc_date(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_date(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(utc_date(1_735_689_599), "2024-12-31 23:59 UTC");
        assert_eq!(utc_date(1_798_113_900), "2026-12-24 12:05 UTC");
    }

    #[test]
    fn the_compiler_is_recorded() {
        assert!(super::RUSTC.starts_with("rustc "), "{}", super::RUSTC);
    }
}
