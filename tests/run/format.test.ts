import { describe, expect, it } from 'vitest';
import { chatTokensText } from '../../src/run/format';
import { emptyUsage } from '../../api/usage';

const usage = (reported: number, without: number, estimated: number) => ({
  ...emptyUsage(),
  chatTokens: { prompt: reported, completion: 0, total: reported },
  chatCallsWithoutUsage: without,
  chatTokensEstimated: { prompt: estimated, completion: 0, total: estimated },
});

describe('chat tokens as the run panel prints them', () => {
  it('shows a reported count as it is, and an estimate marked as one', () => {
    expect(chatTokensText(usage(120, 0, 0))).toEqual({ text: '120' });
    expect(chatTokensText(usage(0, 1, 64))).toMatchObject({ text: '≈ 64 (estimated)' });
    expect(chatTokensText(usage(120, 1, 64))).toMatchObject({ text: '120 + ≈ 64 (estimated)' });
    expect(chatTokensText(usage(0, 2, 64)).title).toContain('2 chat calls did not report usage');
  });

  it('reads usage kept by an older build, which has no estimate', () => {
    const { chatTokensEstimated: _gone, ...old } = usage(0, 1, 0);
    expect(chatTokensText(old as ReturnType<typeof emptyUsage>).text).toBe('not reported by the service');
  });
});
