//! Work sharing between the workers of one direction. Each worker owns an open list and keeps
//! its children there, so each runs its own best-first dive; the visited table (shared by all
//! workers of both directions) does the duplicate detection, so the dives never repeat each
//! other's states. While some worker waits for work, the others send it the children that are
//! worse than their parents, each to the worker its fingerprint names (as in hash-distributed
//! A*). No lock guards any open list; nodes travel in batches over crossbeam channels.
//!
//! Plain HDA* (every child to its hash owner) keeps the group's order closest to one global
//! best-first order, and A* did as well with it, but it scattered greedy dives: an open room
//! with twenty boxes that one thread solves in 240 expansions took over 300,000 on two threads,
//! and under 500 with local-first sharing.
//!
//! Termination: `work` counts active workers plus nodes in flight. A sender adds the nodes
//! before sending; a receiver that was idle adds itself before subtracting the nodes it took
//! in; a worker that runs dry subtracts itself. `work` reaches zero only when no worker has a
//! node and none is on its way, and then it stays zero: the direction has searched everything.

use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};
use std::time::Duration;

use crossbeam::channel::{unbounded, Receiver, RecvTimeoutError, Sender, TryRecvError};

use crate::open::OpenList;

/// What a worker with an empty open list found when it looked for work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Idle {
    /// Nodes arrived: it can go on.
    Fed,
    /// Nothing yet, but the group still has work somewhere.
    Waiting,
    /// The whole group has run dry.
    Dry,
}

/// Nodes travelling to one worker: their keys and their words, `stride` words each.
#[derive(Debug, Default)]
pub struct Batch {
    keys: Vec<(u32, u32)>,
    words: Vec<u16>,
}

/// The shared part of one direction's group of workers.
#[derive(Debug)]
pub struct Group {
    senders: Vec<Sender<Batch>>,
    work: AtomicIsize,
    /// Workers waiting with an empty open list.
    hungry: AtomicUsize,
}

/// Expansions between flushes of the batches a worker sends to the others.
pub const FLUSH_EVERY: u64 = 8;

/// A batch is sent once it holds this many nodes (or at the end of a few expansions).
const BATCH_NODES: usize = 64;

impl Group {
    /// A group of `size` workers, with a mailbox for each.
    pub fn new(size: usize) -> (Group, Vec<Receiver<Batch>>) {
        let (senders, receivers) = (0..size).map(|_| unbounded()).unzip();
        (Group { senders, work: AtomicIsize::new(size as isize), hungry: AtomicUsize::new(0) }, receivers)
    }

    /// True once the group has searched everything it can reach.
    pub fn exhausted(&self) -> bool {
        self.work.load(Ordering::SeqCst) == 0
    }
}

/// One worker's end of the group: its inbox and its outgoing batches.
#[derive(Debug)]
pub struct Mailbox<'g> {
    id: usize,
    group: &'g Group,
    inbox: Receiver<Batch>,
    outgoing: Vec<Batch>,
    active: bool,
}

impl<'g> Mailbox<'g> {
    /// Worker `id`'s mailbox.
    pub fn new(id: usize, group: &'g Group, inbox: Receiver<Batch>) -> Mailbox<'g> {
        let outgoing = (0..group.senders.len()).map(|_| Batch::default()).collect();
        Mailbox { id, group, inbox, outgoing, active: true }
    }

    /// The worker that owns a state with this fingerprint key.
    #[inline]
    pub fn owner(&self, key: u64) -> usize {
        // The high half of the key: the table uses the low bits for buckets.
        (((key >> 32) * self.group.senders.len() as u64) >> 32) as usize
    }

    /// True while some worker of the group waits for nodes.
    #[inline]
    pub fn someone_hungry(&self) -> bool {
        self.group.hungry.load(Ordering::Relaxed) > 0
    }

    /// This worker's index in the group.
    #[inline]
    pub fn id(&self) -> usize {
        self.id
    }

    /// Queues a node for worker `to`.
    #[inline]
    pub fn send(&mut self, to: usize, primary: usize, secondary: usize, node: &[u16]) {
        let batch = &mut self.outgoing[to];
        batch.keys.push((primary as u32, secondary as u32));
        batch.words.extend_from_slice(node);
        if batch.keys.len() >= BATCH_NODES {
            self.flush_one(to);
        }
    }

    fn flush_one(&mut self, to: usize) {
        let batch = std::mem::take(&mut self.outgoing[to]);
        let n = batch.keys.len() as isize;
        if n == 0 {
            return;
        }
        self.group.work.fetch_add(n, Ordering::SeqCst);
        if self.group.senders[to].send(batch).is_err() {
            // The receiver is gone: the search is ending. Keep the count honest.
            self.group.work.fetch_sub(n, Ordering::SeqCst);
        }
    }

    /// Sends every queued node.
    pub fn flush(&mut self) {
        for to in 0..self.outgoing.len() {
            self.flush_one(to);
        }
    }

    /// Moves every node that has arrived into `open`. Returns true if any did.
    pub fn receive(&mut self, open: &mut OpenList) -> bool {
        let mut any = false;
        while let Ok(batch) = self.inbox.try_recv() {
            self.take(batch, open);
            any = true;
        }
        any
    }

    fn take(&mut self, batch: Batch, open: &mut OpenList) {
        if !self.active {
            self.active = true;
            self.group.work.fetch_add(1, Ordering::SeqCst);
            self.group.hungry.fetch_sub(1, Ordering::Relaxed);
        }
        let stride = open.stride();
        for (k, node) in batch.keys.iter().zip(batch.words.chunks_exact(stride)) {
            open.push(k.0 as usize, k.1 as usize, node);
        }
        self.group.work.fetch_sub(batch.keys.len() as isize, Ordering::SeqCst);
    }

    /// Called with an empty open list: sends what is queued, marks this worker idle, and waits
    /// a little for nodes. Returns true if the group has run dry.
    pub fn idle(&mut self, open: &mut OpenList) -> bool {
        self.wait_for_work(open, Duration::from_millis(1)) == Idle::Dry
    }

    /// Called with an empty open list: sends what is queued, marks this worker idle, and takes
    /// in nodes that arrive within `patience` (zero: only those already there). Call it again
    /// while it says [`Idle::Waiting`].
    pub fn wait_for_work(&mut self, open: &mut OpenList, patience: Duration) -> Idle {
        self.flush();
        if self.active {
            self.active = false;
            self.group.hungry.fetch_add(1, Ordering::Relaxed);
            self.group.work.fetch_sub(1, Ordering::SeqCst);
        }
        let batch = if patience.is_zero() {
            match self.inbox.try_recv() {
                Ok(batch) => Some(batch),
                Err(TryRecvError::Empty) => None,
                Err(TryRecvError::Disconnected) => return Idle::Dry,
            }
        } else {
            match self.inbox.recv_timeout(patience) {
                Ok(batch) => Some(batch),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => return Idle::Dry,
            }
        };
        match batch {
            Some(batch) => {
                self.take(batch, open);
                Idle::Fed
            }
            None if self.group.exhausted() => Idle::Dry,
            None => Idle::Waiting,
        }
    }
}
