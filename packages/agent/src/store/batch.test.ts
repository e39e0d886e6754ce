import { describe, expect, it } from 'vitest';
import { Batcher } from './batch.js';

describe('Batcher', () => {
  it('gathers the requests of one turn of the event loop into one run, answers each in order', async () => {
    const runs: number[][] = [];
    const batcher = new Batcher<number, number>(async (inputs) => {
      runs.push([...inputs]);
      return inputs.map((input) => input * 10);
    });
    const answers = await Promise.all([1, 2, 3].map((input) => batcher.submit(input)));
    expect(answers).toEqual([10, 20, 30]);
    expect(runs).toEqual([[1, 2, 3]]);
  });

  it('requests made while a run is in flight go together in the next run; `max` splits a large batch', async () => {
    const runs: number[][] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const batcher = new Batcher<number, number>(async (inputs) => {
      runs.push([...inputs]);
      if (runs.length === 1) await gate;
      return [...inputs];
    }, 2);
    const first = batcher.submit(0);
    await new Promise((resolve) => setImmediate(resolve));
    const later = [1, 2, 3, 4, 5].map((input) => batcher.submit(input));
    release();
    expect(await Promise.all([first, ...later])).toEqual([0, 1, 2, 3, 4, 5]);
    expect(runs).toEqual([[0], [1, 2], [3, 4], [5]]);
  });

  it('a failing run rejects its whole batch, with its error, and the next batch still runs', async () => {
    let calls = 0;
    const batcher = new Batcher<string, string>(async (inputs) => {
      calls += 1;
      if (calls === 1) throw new Error('database gone');
      return inputs.map((input) => input.toUpperCase());
    });
    const failed = [batcher.submit('a'), batcher.submit('b')];
    await expect(failed[0]).rejects.toThrow('database gone');
    await expect(failed[1]).rejects.toThrow('database gone');
    expect(await batcher.submit('c')).toBe('C');
  });

  it('a run that answers a different number of requests rejects them all (never a wrong answer)', async () => {
    const batcher = new Batcher<number, number>(async () => [1]);
    const results = await Promise.allSettled([batcher.submit(1), batcher.submit(2)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(String((results[0] as PromiseRejectedResult).reason)).toMatch(/A batch of 2 got 1 answers/);
  });
});
