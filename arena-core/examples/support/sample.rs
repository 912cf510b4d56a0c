//! The command line of the examples that read a file: `--measure HOW PATH` (one read in this
//! process), a path, or a sample of a given size written first and removed after.

use std::path::{Path, PathBuf};

/// What the command line asks for.
pub enum Run {
    /// `--measure HOW PATH`: one read, in this process.
    Measure(String, PathBuf),
    /// Read the file at `path` in a process per read; `sample` is the size of the sample to
    /// write there first (and remove after), if any.
    Read { path: PathBuf, sample: Option<u64> },
}

/// Parses the command line (the arguments after the program): `[PATH | FLAG N]`, `N`
/// defaulting to `default`, a sample written to `sample_path`.
pub fn parse(
    args: &[String],
    flag: &str,
    default: u64,
    sample_path: PathBuf,
) -> Result<Run, Box<dyn std::error::Error>> {
    Ok(match args {
        [measure, how, path] if measure == "--measure" => {
            Run::Measure(how.clone(), PathBuf::from(path))
        }
        [] => Run::Read {
            path: sample_path,
            sample: Some(default),
        },
        [f, n] if f == flag => Run::Read {
            path: sample_path,
            sample: Some(n.parse()?),
        },
        [path] => Run::Read {
            path: PathBuf::from(path),
            sample: None,
        },
        _ => return Err(format!("usage: [PATH | {flag} N]").into()),
    })
}

/// Writes the sample with `write` if there is one, runs `read` on `path`, then removes the
/// sample.
pub fn with_sample(
    path: &Path,
    sample: Option<u64>,
    write: impl FnOnce(&Path, u64) -> Result<(), Box<dyn std::error::Error>>,
    read: impl FnOnce(&Path) -> Result<(), Box<dyn std::error::Error>>,
) -> Result<(), Box<dyn std::error::Error>> {
    if let Some(n) = sample {
        write(path, n)?;
    }
    let result = read(path);
    if sample.is_some() {
        std::fs::remove_file(path)?;
    }
    result
}
