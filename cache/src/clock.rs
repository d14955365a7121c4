//! Where the cache's notion of time comes from.
//!
//! The cache never reads the system clock itself: it asks its [`Clock`], so tests and fuzzers
//! can drive time by hand with a [`ManualClock`] and production code gets [`SystemClock`], or
//! [`CoarseClock`] where reading the system clock on every call costs too much.

use std::rc::Rc;
use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::{self, Thread};
use std::time::{Duration, Instant};

/// A monotonic source of time, in ticks.
///
/// The cache compares ticks only with each other and with its time-to-live, so a tick can be
/// any unit (nanoseconds for [`SystemClock`], whatever a test likes for [`ManualClock`]).
///
/// A clock must never go backwards. If one does, the cache stays memory-safe and never panics,
/// but which entries are live is unspecified, until the next write: it gives every entry
/// written at a later time its own deadline, so that none outlives a ttl from then.
///
/// # Example
///
/// ```
/// use cache::Clock;
///
/// /// A clock that counts how often it was read: every read is a tick.
/// struct Ticker(std::cell::Cell<u64>);
///
/// impl Clock for Ticker {
///     fn now(&self) -> u64 {
///         self.0.set(self.0.get() + 1);
///         self.0.get()
///     }
/// }
///
/// let clock = Ticker(Default::default());
/// assert!(clock.now() < clock.now());
/// ```
pub trait Clock {
    /// The current time, in ticks.
    fn now(&self) -> u64;
}

/// The default clock: nanoseconds since the first time any `SystemClock` was read, from
/// [`std::time::Instant`]. Every read asks the operating system's clock (21 to 40 ns measured on
/// Linux, through the vDSO rather than a system call); see [`CoarseClock`] for a cheaper one.
///
/// # Example
///
/// ```
/// use cache::{Clock, SystemClock};
///
/// let before = SystemClock.now();
/// assert!(SystemClock.now() >= before);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    // The one place in the crate allowed to read the wall clock (see clippy.toml).
    #[allow(clippy::disallowed_methods)]
    #[inline]
    fn now(&self) -> u64 {
        static EPOCH: OnceLock<Instant> = OnceLock::new();
        let epoch = *EPOCH.get_or_init(Instant::now);
        // u64 nanoseconds last 584 years; saturate rather than wrap beyond that.
        u64::try_from(epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// The [`SystemClock`]'s time, read by a background thread once per `resolution` and kept in an
/// atomic: reading it costs one load instead of a clock read (about 1 ns against 21 to 40).
///
/// In exchange, time moves in steps: a write's time is the last step before it, and an expiry
/// is noticed at the first step from its deadline on. So in real time an entry lives its ttl
/// give or take one step; where it must never vanish early, give the cache a ttl one step
/// longer. Steps are at least `resolution` apart, longer when the thread runs late, and below
/// about 100 µs the operating system's timer slack sets them (asked for 1 µs, the steps measured
/// 80 µs, median, on a 2-core Linux VM).
///
/// Ticks are nanoseconds on the [`SystemClock`]'s scale, so ttls work the same on both. Clones
/// share one thread, which ends when the last clone is dropped. If no thread can be started,
/// every read asks the [`SystemClock`] instead.
///
/// # Example
///
/// ```
/// use std::time::Duration;
/// use cache::{Cache, CoarseClock};
///
/// let ttl = Duration::from_secs(60).as_nanos() as u64;
/// let mut cache = Cache::with_clock(100, Some(ttl), CoarseClock::new(Duration::from_millis(1)));
/// cache.put("session", 7);
/// assert_eq!(cache.get(&"session"), Some(&7));
/// ```
#[derive(Clone, Debug)]
pub struct CoarseClock {
    /// The time the thread stored last; `None` if it could not be started.
    latest: Option<Arc<AtomicU64>>,
    /// The thread, woken whenever a clone is dropped: if that was the last one, it ends then,
    /// not a step later (which, for a long resolution, could be hours).
    ticker: Option<Thread>,
}

impl CoarseClock {
    /// Starts the thread that reads the system clock every `resolution` (at least 1 µs; see
    /// above for how long the steps really are).
    ///
    /// # Example
    ///
    /// ```
    /// use std::time::Duration;
    /// use cache::{Clock, CoarseClock, SystemClock};
    ///
    /// let clock = CoarseClock::new(Duration::from_millis(1));
    /// assert!(clock.now() <= SystemClock.now());
    /// ```
    #[must_use]
    pub fn new(resolution: Duration) -> Self {
        let step = u64::try_from(resolution.max(Duration::from_micros(1)).as_nanos()).unwrap_or(u64::MAX);
        let latest = Arc::new(AtomicU64::new(SystemClock.now()));
        // The thread holds only a weak reference, so dropping the last clone stops it.
        let weak = Arc::downgrade(&latest);
        let started = thread::Builder::new().name("cache::CoarseClock".into()).spawn(move || {
            let mut next_step = 0;
            while let Some(latest) = weak.upgrade() {
                let now = SystemClock.now();
                // Woken early (a clone was dropped), it only looks whether any clone is left.
                if now >= next_step {
                    latest.store(now, Ordering::Relaxed);
                    next_step = now.saturating_add(step);
                }
                drop(latest);
                thread::park_timeout(Duration::from_nanos(next_step - now));
            }
        });
        match started {
            Ok(handle) => Self { latest: Some(latest), ticker: Some(handle.thread().clone()) },
            Err(_) => Self { latest: None, ticker: None },
        }
    }
}

impl Drop for CoarseClock {
    fn drop(&mut self) {
        // Let go of the time first, so that the woken thread sees whether a clone is left.
        self.latest = None;
        if let Some(ticker) = &self.ticker {
            ticker.unpark();
        }
    }
}

impl Clock for CoarseClock {
    #[inline]
    fn now(&self) -> u64 {
        match &self.latest {
            Some(latest) => latest.load(Ordering::Relaxed),
            None => SystemClock.now(),
        }
    }
}

/// A clock that moves only when told to; clones share one time.
///
/// Made for tests and fuzzing, and for applications that keep a coarse time of their own (a
/// timer thread can [`set`](ManualClock::set) it: it is `Send + Sync`).
///
/// # Example
///
/// ```
/// use cache::{Clock, ManualClock};
///
/// let clock = ManualClock::new(10);
/// let shared = clock.clone();
/// clock.advance(5);
/// assert_eq!(shared.now(), 15);
/// shared.set(100);
/// assert_eq!(clock.now(), 100);
/// ```
#[derive(Clone, Debug, Default)]
pub struct ManualClock {
    now: Arc<AtomicU64>,
}

impl ManualClock {
    /// A clock that reads `start` until it is moved.
    ///
    /// # Example
    ///
    /// ```
    /// use cache::{Clock, ManualClock};
    ///
    /// assert_eq!(ManualClock::new(7).now(), 7);
    /// ```
    #[must_use]
    pub fn new(start: u64) -> Self {
        Self { now: Arc::new(AtomicU64::new(start)) }
    }

    /// Moves time forward by `ticks`, saturating at `u64::MAX`.
    ///
    /// # Example
    ///
    /// ```
    /// use cache::{Clock, ManualClock};
    ///
    /// let clock = ManualClock::new(u64::MAX - 1);
    /// clock.advance(5);
    /// assert_eq!(clock.now(), u64::MAX);
    /// ```
    pub fn advance(&self, ticks: u64) {
        // `fetch_add` would wrap around to the distant past; a saturating update cannot.
        let _ = self
            .now
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |now| Some(now.saturating_add(ticks)));
    }

    /// Sets the time to `now`. Setting it backwards breaks the promise of a monotonic clock:
    /// the cache stays safe, but which entries are live is then unspecified.
    ///
    /// # Example
    ///
    /// ```
    /// use cache::{Clock, ManualClock};
    ///
    /// let clock = ManualClock::new(0);
    /// clock.set(42);
    /// assert_eq!(clock.now(), 42);
    /// ```
    pub fn set(&self, now: u64) {
        self.now.store(now, Ordering::Relaxed);
    }
}

impl Clock for ManualClock {
    #[inline]
    fn now(&self) -> u64 {
        self.now.load(Ordering::Relaxed)
    }
}

impl<C: Clock + ?Sized> Clock for &C {
    #[inline]
    fn now(&self) -> u64 {
        (**self).now()
    }
}

impl<C: Clock + ?Sized> Clock for Box<C> {
    #[inline]
    fn now(&self) -> u64 {
        (**self).now()
    }
}

impl<C: Clock + ?Sized> Clock for Rc<C> {
    #[inline]
    fn now(&self) -> u64 {
        (**self).now()
    }
}

impl<C: Clock + ?Sized> Clock for Arc<C> {
    #[inline]
    fn now(&self) -> u64 {
        (**self).now()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::CoarseClock;

    #[test]
    fn the_coarse_clock_thread_lets_go_of_the_time_when_the_last_clone_drops() {
        let clock = CoarseClock::new(Duration::from_millis(1));
        let latest = Arc::downgrade(clock.latest.as_ref().expect("the thread started"));
        let clone = clock.clone();
        drop(clock);
        assert!(latest.upgrade().is_some(), "a clone still holds the time");
        drop(clone);
        // The thread holds the time only while it stores it, for a moment every millisecond.
        let released = (0..1000).any(|_| {
            std::thread::sleep(Duration::from_micros(100));
            latest.upgrade().is_none()
        });
        assert!(released, "the thread keeps the time alive");
    }
}
