//! Threads of their own for the long work of matches and builds.
//!
//! Tokio's blocking pool is shared by everything that blocks, web requests included
//! (password hashing, printing a log): whatever holds its threads, a flood of slow
//! clients say, would make a match or a build wait for one. A match or a build runs
//! instead on a thread started for it, which no request can take; there are as many
//! as there are workers and builders, a few.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use tokio::sync::oneshot;

/// Work running on a thread of its own; awaiting it gives its result, or an error if
/// it panicked. Dropping it does not stop the work (as with a blocking task).
#[derive(Debug)]
pub struct Dedicated<T>(oneshot::Receiver<std::thread::Result<T>>);

/// Starts `work` on a new thread called `name`.
pub fn spawn<T: Send + 'static>(
    name: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> std::io::Result<Dedicated<T>> {
    let (tx, rx) = oneshot::channel();
    std::thread::Builder::new()
        .name(name.to_string())
        .spawn(move || {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work));
            let _ = tx.send(result);
        })?;
    Ok(Dedicated(rx))
}

/// [`spawn`], then waits for the work to be done.
pub async fn run<T: Send + 'static>(
    name: &str,
    work: impl FnOnce() -> T + Send + 'static,
) -> anyhow::Result<T> {
    spawn(name, work)?.await
}

impl<T> Future for Dedicated<T> {
    type Output = anyhow::Result<T>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        Pin::new(&mut self.0).poll(cx).map(|r| match r {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(panic)) => {
                let what = (panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into());
                Err(anyhow::anyhow!("the work panicked: {what}"))
            }
            Err(_) => Err(anyhow::anyhow!("the work's thread ended without a result")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_on_a_named_thread_of_its_own_and_panics_are_errors() {
        let name = run("dedicated-test", || {
            std::thread::current().name().map(str::to_string)
        })
        .await
        .unwrap();
        assert_eq!(name.as_deref(), Some("dedicated-test"));
        let panicked = run("dedicated-test", || -> u32 { panic!("boom") }).await;
        assert!(format!("{:#}", panicked.unwrap_err()).contains("boom"));
    }
}
