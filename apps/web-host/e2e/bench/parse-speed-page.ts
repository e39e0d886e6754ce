/**
 * The reference of the first-delivery benchmark (host-delivery.bench.ts), added to a host page after its delivery:
 * `JSON.parse` + `parseDocument` of the document's text in that page, the yardstick for a delivery.
 */
import { parseDocument } from '@lineup/shared';

declare global {
  interface Window {
    /** Median of `runs` timings of `parseDocument(JSON.parse(text))`. */
    lineupParseTime(text: string, runs: number): number;
  }
}

window.lineupParseTime = (text, runs) => {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const start = performance.now();
    parseDocument(JSON.parse(text));
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)] ?? Number.NaN;
};
