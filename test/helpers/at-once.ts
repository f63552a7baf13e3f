// Starts many runs at once, `concurrency` at a time and in the order given; each test then awaits
// its own run by key (the detection matrices). Every key has its promise at once, so a test may
// ask for its run before the run has a slot; a failed run rejects only its own promise.
export function startAtOnce<K, T>(runs: Array<[K, () => Promise<T>]>, concurrency: number): Map<K, Promise<T>> {
  const started = new Map<K, Promise<T>>();
  const turns: Array<() => void> = [];
  let next = 0;
  const startNext = () => turns[next++]?.();
  for (const [key, start] of runs) {
    const turn = new Promise<void>((go) => turns.push(go));
    const p = turn.then(start).finally(startNext);
    p.catch(() => undefined); // its test awaits it and reports the failure
    started.set(key, p);
  }
  for (let i = 0; i < concurrency; i++) startNext();
  return started;
}

/** The run of `key`, or an error naming it. */
export function runOf<K, T>(runs: Map<K, Promise<T>>, key: K): Promise<T> {
  const p = runs.get(key);
  if (!p) throw new Error(`no run ${String(key)}`);
  return p;
}
