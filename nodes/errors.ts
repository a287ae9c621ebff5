import type { ParamIssue } from './types';

/** A run refused before anything is sent, because parameters or inputs break a rule. */
export class ParamIssuesError extends Error {
  constructor(readonly issues: readonly ParamIssue[]) {
    super(issues.map((i) => `${i.param}: ${i.message}`).join('\n'));
    this.name = 'ParamIssuesError';
  }
}
