import { describe, expect, it } from 'vitest';
import { batchText } from '../../src/run/RunSummary';
import type { RunSummary } from '../../workers/events';

/** A run's summary with the figures batchText reads. */
function run(status: RunSummary['status'], apiCalls: number, images: number, priceUnits: number, durationMs: number): RunSummary {
  return { status, apiCalls, durationMs, usage: { images, priceUnits } } as unknown as RunSummary;
}

describe('the batch line of the run summary', () => {
  it('adds up a whole batch: calls, images with their price units, failures and time', () => {
    const text = batchText({ count: 3, summaries: [run('succeeded', 2, 1, 2, 1200), run('failed', 1, 0, 0, 300), run('succeeded', 0, 0, 0, 40)] });
    expect(text).toBe('Batch of 3 runs, 3 calls, 1 image (2 price units), 1 with failures, 1.5 s in all. The figures below are the last run\'s.');
  });

  it('says how far a stopped batch got', () => {
    const text = batchText({ count: 4, summaries: [run('succeeded', 1, 1, 1, 500), run('cancelled', 1, 0, 0, 100)] });
    expect(text).toBe('Batch stopped after 1 of 4 runs, 2 calls, 1 image (1 price unit), 0.6 s in all. The figures below are the last run\'s.');
  });
});
