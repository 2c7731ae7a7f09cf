import type { Worker } from './model.ts';

/** The visible fields of a worker, in a fixed order. */
export function renderWorker(worker: Worker): Worker {
  return {
    id: worker.id,
    command: worker.command,
    size: worker.size,
    state: worker.state,
    created_at: worker.created_at,
    updated_at: worker.updated_at,
  };
}
