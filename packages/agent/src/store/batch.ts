/**
 * Gathers concurrent requests of one kind into one statement: while a statement runs, the next requests wait, and
 * then go together (at most `max` at a time). A thousand conversations each handing over an envelope thus cost a few
 * statements, not a thousand — which matters most on PGlite, one single-threaded database in the process. A batch
 * starts after the current turn of the event loop's I/O, so the requests made by the frames read in it gather.
 */
interface Waiting<In, Out> {
  readonly input: In;
  readonly resolve: (output: Out) => void;
  readonly reject: (error: unknown) => void;
}

export class Batcher<In, Out> {
  readonly #waiting: Waiting<In, Out>[] = [];
  #running = false;

  /**
   * @param run answers a batch: one output per input, in the same order. When it throws, every request of the batch
   *   is rejected with that error (and the next batch still runs).
   */
  constructor(
    readonly run: (inputs: readonly In[]) => Promise<readonly Out[]>,
    readonly max = 256,
  ) {}

  submit(input: In): Promise<Out> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ input, resolve, reject });
      if (this.#running) return;
      this.#running = true;
      // After the I/O of this turn of the event loop: the requests that the frames read in it make go together.
      // (PGlite runs a statement synchronously, so without this wait nothing would gather while it runs.)
      setImmediate(() => void this.#drain());
    });
  }

  async #drain(): Promise<void> {
    try {
      while (this.#waiting.length > 0) {
        const batch = this.#waiting.splice(0, this.max);
        try {
          const outputs = await this.run(batch.map((waiting) => waiting.input));
          if (outputs.length !== batch.length)
            throw new Error(`A batch of ${batch.length} got ${outputs.length} answers.`);
          batch.forEach((waiting, index) => {
            waiting.resolve(outputs[index] as Out);
          });
        } catch (error) {
          for (const waiting of batch) waiting.reject(error);
        }
      }
    } finally {
      this.#running = false;
    }
  }
}
