/**
 * A form's problems and a prompt's token count, answered by the run worker (form-checks.ts). An
 * answer arrives a moment after the form draws; until the next one does, the last one stays.
 */
import { useContext, useDeferredValue, useEffect, useState } from 'react';
import type { AnyNodeDefinition, PortSpec } from '../../nodes/types';
import type { InboundEdges } from '../store/graph-index';
import { FormChecksContext } from './form-checks';
import { connectedParams, issuesOf, NO_ISSUES, type FormIssues } from './issues';

export function useFormIssues(
  def: AnyNodeDefinition,
  params: Record<string, unknown>,
  inputs: readonly PortSpec[],
  inbound: InboundEdges | undefined,
): FormIssues {
  const checks = useContext(FormChecksContext);
  const [issues, setIssues] = useState<FormIssues>(NO_ISSUES);
  useEffect(() => {
    if (!checks) return;
    let live = true;
    const { connected, fromPorts } = connectedParams(inputs, inbound);
    checks.paramProblems(def.type, params, [...connected], [...fromPorts]).then((problems) => {
      if (live) setIssues(problems ? issuesOf(def, params, problems) : NO_ISSUES);
    }, () => undefined);
    return () => {
      live = false;
    };
  }, [checks, def, params, inputs, inbound]);
  return issues;
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
