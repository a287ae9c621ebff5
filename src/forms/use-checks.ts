/**
 * A form's problems, found as it draws (formIssues: the check a run makes), and a prompt's token
 * count, answered by the run worker (form-checks.ts) a moment after; until the next count comes,
 * the last one stays.
 */
import { useContext, useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { AnyNodeDefinition, PortSpec } from '../../nodes/types';
import type { InboundEdges } from '../store/graph-index';
import { FormChecksContext } from './form-checks';
import { formIssues, type FormIssues } from './issues';

export function useFormIssues(
  def: AnyNodeDefinition,
  params: Record<string, unknown>,
  inputs: readonly PortSpec[],
  inbound: InboundEdges | undefined,
): FormIssues {
  return useMemo(() => formIssues(def, params, inputs, inbound), [def, params, inputs, inbound]);
}

/** The tokens of `prompt`; undefined until the first answer. Counting trails typing a little. */
export function usePromptTokens(prompt: string): number | undefined {
  const checks = useContext(FormChecksContext);
  const deferred = useDeferredValue(prompt);
  const [counted, setCounted] = useState<number>();
  useEffect(() => {
    if (!checks) return;
    let live = true;
    checks.promptTokens(deferred).then((tokens) => {
      if (live) setCounted(tokens);
    }, () => undefined);
    return () => {
      live = false;
    };
  }, [checks, deferred]);
  return prompt.trim() === '' ? 0 : counted;
}
