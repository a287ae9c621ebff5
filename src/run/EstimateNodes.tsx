/**
 * The cost estimate's per-node lines (EstimateView's "Per node"), drawn only while it is open: a
 * 500-node graph would otherwise put 500 lines in the page at every estimate.
 */
import type { NodeEstimate, RunEstimate } from '../../workers/estimate';
import type { Workflow } from '../../workflow/schema';
import { useRunContext } from './context';
import { plural, quoteText } from './format';

type Ready = Extract<RunEstimate, { ok: true }>;

/** One node's line in the breakdown, saying first how many times it runs when a list fans it out. */
function nodeLine(n: NodeEstimate, upstream: string | undefined): string {
  const line = costLine(n, upstream);
  if (n.items !== undefined) return `runs ${n.itemsDescription ?? n.items} times${n.cachedItems ? ` (${n.cachedItems} cached)` : ''}: ${line}`;
  if (n.fansOut === true) return `runs once per item of a list known only once ${upstream ?? 'the node before it'} has run (counted once): ${line}`;
  return line;
}

function costLine(n: NodeEstimate, upstream: string | undefined): string {
  switch (n.status) {
    case 'cached':
      return `cached: free${n.apiCallsSaved > 0 ? ` (saves ${plural(n.apiCallsSaved, 'call')})` : ''}`;
    case 'bypassed':
      return 'bypassed: free';
    case 'skipped':
      return `skipped${n.reason ? `: ${n.reason}` : ''}`;
    case 'fails':
      return `would fail before sending anything${n.reason ? `: ${n.reason}` : ''}`;
    case 'runs': {
      if (!n.costKnown) return 'runs; its cost is not known';
      const parts: string[] = [];
      if (n.imageCalls > 0) {
        const premium = n.images > 0 && n.priceUnits === n.images * 2;
        parts.push(`${plural(n.images, 'image')}, ${plural(n.priceUnits, 'unit')}${premium ? ' (premium sampler, 2×)' : ''}`);
      }
      if (n.chatCalls > 0) parts.push(n.maxTokens === undefined ? 'chat, no token cap' : `chat, up to ${plural(n.maxTokens, 'token')}`);
      const what = parts.length === 0 ? 'free' : parts.join('; ');
      const why = !n.cacheable && n.apiCalls > 0 ? ' (never cached: random seed or re-run)' : '';
      const unknown = n.unknownUntilUpstreamRuns ? ` · counted as running: whether it is cached is known once ${upstream ?? 'the node before it'} has run` : '';
      const money = n.price === undefined ? '' : ` · ${quoteText(n.price.quote)}`;
      return `${what}${why}${money}${unknown}`;
    }
  }
}

export default function EstimateNodes({ estimate, workflow }: { estimate: Ready; workflow: Workflow }) {
  const { describeNode, focusNode } = useRunContext();
  const label = (id: string) => describeNode(id).label;
  const upstreamOf = (id: string) => {
    const from = workflow.edges.find((e) => e.target.node === id)?.source.node;
    return from === undefined ? undefined : `'${label(from)}'`;
  };
  return (
    <ul>
      {estimate.nodes.map((n) => (
        <li key={n.nodeId} data-status={n.status}>
          <button type="button" className="run-link" onClick={() => focusNode(n.nodeId)}>
            <strong>{label(n.nodeId)}</strong>: {nodeLine(n, upstreamOf(n.nodeId))}
          </button>
        </li>
      ))}
    </ul>
  );
}
