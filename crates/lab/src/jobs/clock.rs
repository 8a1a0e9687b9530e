//! Where a job reads the time. A time limit is an option of the job
//! (`max_seconds`) and the job enforces it itself, so the command line and
//! a Python caller get the same limit; a test hands in a fake clock and
//! drives a limit without waiting (issue 47).

use std::time::Instant;

/// Seconds since an origin of the clock's own; never decreasing.
pub trait Clock: Sync {
    fn seconds(&self) -> f64;
}

/// The process's monotonic clock, from when it was made.
pub struct SystemClock(Instant);

impl SystemClock {
    pub fn new() -> SystemClock {
        SystemClock(Instant::now())
    }
}

impl Default for SystemClock {
    fn default() -> SystemClock {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn seconds(&self) -> f64 {
        self.0.elapsed().as_secs_f64()
    }
}

/// A limit of `max_seconds` (none: no limit) from when it was made or
/// last restarted, on `clock`.
pub struct Deadline<'a> {
    clock: &'a dyn Clock,
    start: f64,
    max_seconds: Option<f64>,
}

impl<'a> Deadline<'a> {
    pub fn new(clock: &'a dyn Clock, max_seconds: Option<f64>) -> Deadline<'a> {
        Deadline {
            clock,
            start: clock.seconds(),
            max_seconds,
        }
    }

    /// The limit counts from now again (the prover's: each search has its
    /// own).
    pub fn restart(&mut self) {
        self.start = self.clock.seconds();
    }

    /// Seconds since the start.
    pub fn elapsed(&self) -> f64 {
        self.clock.seconds() - self.start
    }

    /// Whether more than `max_seconds` have passed.
    pub fn passed(&self) -> bool {
        self.max_seconds.is_some_and(|m| self.elapsed() > m)
    }
}

/// A clock for tests: each reading is `step` seconds after the last, so a
/// limit is reached after a known number of readings, whatever the
/// machine's speed.
#[cfg(any(test, feature = "checks"))]
pub struct FakeClock {
    readings: std::sync::atomic::AtomicU64,
    step: f64,
}

#[cfg(any(test, feature = "checks"))]
impl FakeClock {
    pub fn new(step: f64) -> FakeClock {
        FakeClock {
            readings: std::sync::atomic::AtomicU64::new(0),
            step,
        }
    }

    /// How many times the clock was read.
    pub fn readings(&self) -> u64 {
        self.readings.load(std::sync::atomic::Ordering::SeqCst)
    }
}

#[cfg(any(test, feature = "checks"))]
impl Clock for FakeClock {
    fn seconds(&self) -> f64 {
        let n = self
            .readings
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        n as f64 * self.step
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_passes_after_its_seconds_and_restarts() {
        let clock = FakeClock::new(1.0);
        let mut d = Deadline::new(&clock, Some(2.5));
        assert!(!d.passed()); // 1 s
        assert!(!d.passed()); // 2 s
        assert!(d.passed()); // 3 s
        d.restart();
        assert!(!d.passed());
        let none = Deadline::new(&clock, None);
        assert!((0..100).all(|_| !none.passed()));
    }
}
