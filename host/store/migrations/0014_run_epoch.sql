-- Fencing of durable runs: every claim of a run (its creation, a resume, a
-- recovery) bumps `epoch`, and every write made for the run (journal rows,
-- the file changes they record, output, interrupts, park, finish) checks in
-- its own transaction that the writer's epoch is still the run's. A process
-- whose lease ran out while it was stopped can then no longer write for a
-- run another process has taken over (`fence.rs`).
ALTER TABLE runs ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
