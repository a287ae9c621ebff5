import { describe, expect, it } from 'vitest';
import { reportedMoneyText } from '../../api/usage';
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

describe('the money line of the run summary', () => {
  it('says what the backends reported, and how many image calls that covers; nothing when none did', () => {
    expect(reportedMoneyText({ reportedUsd: 0, imageCallsWithCost: 0, imageCalls: 3 })).toBeUndefined();
    expect(reportedMoneyText({ reportedUsd: 0.0780093, imageCallsWithCost: 2, imageCalls: 2 })).toBe('$0.0780 reported by the backend');
    expect(reportedMoneyText({ reportedUsd: 12.5, imageCallsWithCost: 2, imageCalls: 3 })).toBe('$12.50 reported by the backend (2 of 3 image calls reported it)');
    // GPU seconds a time-billed model reported: said as seconds, never turned into a guessed amount.
    expect(reportedMoneyText({ reportedUsd: 0, imageCallsWithCost: 0, imageCalls: 2, billedSeconds: 5 })).toBe('5.0 s of GPU time reported, billed by the second at a rate the API does not report');
    expect(reportedMoneyText({ reportedUsd: 0.006, imageCallsWithCost: 1, imageCalls: 2, billedSeconds: 2.5 })).toBe('$0.0060 reported by the backend (1 of 2 image calls reported it); 2.5 s of GPU time reported, billed by the second at a rate the API does not report');
  });
});
