/** The sentence above a refused file's problems: the loader's summary, the count, once each punctuation mark. */
import { describe, expect, it } from 'vitest';
import { WorkflowError } from '../../workflow/errors';
import { loadWorkflow } from '../../workflow/load';
import { refusalSummary } from '../../src/files/load-report';

/** What the loader throws for `text`. */
function refusal(text: string): WorkflowError {
  try {
    loadWorkflow(text);
  } catch (error) {
    if (error instanceof WorkflowError) return error;
    throw error;
  }
  throw new Error('the file opened');
}

const meta = { title: 'Broken', description: '', created: '2026-01-01T00:00:00.000Z', modified: '2026-01-01T00:00:00.000Z' };

describe('refusalSummary', () => {
  it('says what is wrong with one problem in one sentence', () => {
    const error = refusal('{ "format": "atelier.workflow", "nodes": [ ');
    expect(error.issues).toHaveLength(1);
    expect(refusalSummary(error)).toBe('The workflow file is not valid JSON (1 problem). Your current workflow is unchanged.');
  });

  it('counts two problems, with no doubled punctuation', () => {
    const error = refusal(JSON.stringify({
      format: 'atelier.workflow', version: 1, metadata: meta,
      nodes: [{ id: 'bad id!', type: 'text', position: { x: 'left', y: 0 }, params: {} }],
      edges: [],
    }));
    expect(error.issues).toHaveLength(2);
    expect(refusalSummary(error)).toBe('The workflow file cannot be opened (2 problems). Your current workflow is unchanged.');
  });

  it('leaves the count out when the error lists nothing', () => {
    expect(refusalSummary(new WorkflowError('The workflow file is empty', []))).toBe('The workflow file is empty. Your current workflow is unchanged.');
  });
});
