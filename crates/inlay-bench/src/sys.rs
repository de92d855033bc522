//! What the harness reads from the system: CPU model, CPU count, load average and the
//! process's CPU time (to tell a descheduled run).
#![allow(unsafe_code)]

use std::time::Duration;

/// The CPU model name from `/proc/cpuinfo`, if readable.
pub fn cpu_model() -> Option<String> {
    let text = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    model_name(&text)
}

/// The first `model name` line's value of a `/proc/cpuinfo` text.
fn model_name(cpuinfo: &str) -> Option<String> {
    cpuinfo
        .lines()
        .find(|l| l.starts_with("model name"))
        .and_then(|l| l.split(':').nth(1))
        .map(|s| s.trim().to_string())
}

/// CPUs this process may run on (1 when unknown).
pub fn cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The 1-, 5- and 15-minute load averages from `/proc/loadavg`, if readable.
pub fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    parse_loadavg(&text)
}

fn parse_loadavg(text: &str) -> Option<[f64; 3]> {
    let mut it = text.split_whitespace().map(|f| f.parse::<f64>().ok());
    Some([it.next()??, it.next()??, it.next()??])
}

/// CPU time used so far by every thread of this process (`CLOCK_PROCESS_CPUTIME_ID`), or
/// `None` where that clock is not available.
pub fn process_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable `timespec`, the only memory `clock_gettime`
        // touches; an unsupported clock makes it return −1, handled below.
        let r = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
        (r == 0).then(|| Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }
    #[cfg(not(unix))]
    None
}

/// Involuntary context switches of every thread of this process so far (`getrusage`'s
/// `ru_nivcsw`: times a runnable thread lost its core to another task), or `None` where it is
/// not available.
pub fn involuntary_switches() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: `rusage` is plain data; all-zero bytes are a valid value.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: `ru` is a valid, writable `rusage`, the only memory `getrusage` touches.
        let r = unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut ru) };
        (r == 0).then_some(ru.ru_nivcsw as u64)
    }
    #[cfg(not(unix))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_name_is_the_first_one() {
        let text = "processor\t: 0\nmodel name\t: Intel(R) Xeon(R) Processor\nflags : x\n\
                    model name\t: other\n";
        assert_eq!(
            model_name(text).as_deref(),
            Some("Intel(R) Xeon(R) Processor")
        );
        assert_eq!(model_name("processor : 0\n"), None);
    }

    #[test]
    fn loadavg_fields() {
        assert_eq!(
            parse_loadavg("0.40 0.59 0.35 1/123 4567\n"),
            Some([0.40, 0.59, 0.35])
        );
        assert_eq!(parse_loadavg("0.40 x"), None);
    }

    #[cfg(unix)]
    #[test]
    fn cpu_time_grows_with_work() {
        let t0 = process_cpu_time().expect("CLOCK_PROCESS_CPUTIME_ID on unix");
        let mut x = 0u64;
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
        }
        let t1 = process_cpu_time().unwrap();
        assert!(t1 > t0, "{t0:?} -> {t1:?}");
    }
}
