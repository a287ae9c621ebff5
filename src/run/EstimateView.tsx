/**
 * The cost of the next run, before it runs: API calls, images and their price
 * units (a regular-sampler image is 1, a premium one 2), which nodes the cache answers for
 * nothing, and, honestly, the nodes whose cost cannot be known until something upstream has run.
 * With a batch count above one, the batch's total: the worker's estimate says what each later run adds (workers/batch-estimate.ts). What the image backends
 * approximate or leave out of each node's request is said beside it (BackendNotes). Where a backend
 * quotes a price (a hosted provider), the money too, with the price's source and date.
 */
import { useState } from 'react';
import { addFigures } from '../../api/usage';
import type { RunEstimate } from '../../workers/estimate';
import type { WorkflowProblem } from '../../workers/validate';
import type { Workflow } from '../../workflow/schema';
import BackendNotes from './BackendNotes';
import EstimateNodes from './EstimateNodes';
import RouteNotes from './RouteNotes';
import { useEstimate, useRunContext } from './context';
import { formatUsd, plural, quoteText } from './format';

type Ready = Extract<RunEstimate, { ok: true }>;

function calls(imageCalls: number, chatCalls: number): string {
  const parts = [chatCalls > 0 && plural(chatCalls, 'chat call'), imageCalls > 0 && plural(imageCalls, 'image call')].filter(Boolean);
  return parts.length > 1 ? ` (${parts.join(', ')})` : '';
}


function Breakdown({ estimate, workflow }: { estimate: Ready; workflow: Workflow }) {
  // A 500-node graph would put 500 lines in the page at every estimate: only when asked for.
  const [open, setOpen] = useState(false);
  return (
    <details className="run-estimate__nodes" open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Per node</summary>
      {open && (
        <EstimateNodes estimate={estimate} workflow={workflow} />
      )}
    </details>
  );
}

/** What the backends that quote a price say the run costs, with where each price comes from. */
function Money({ price, batch }: { price: NonNullable<Ready['totals']['price']>; batch: boolean }) {
  const known = price.pricedNodes > 0 ? `≈ ${formatUsd(price.amountUsd)}${batch ? ' (first run)' : ''}` : '';
  const unknown = price.unknownNodes > 0 ? `${plural(price.unknownNodes, 'node')}: price unknown` : '';
  return (
    <>
      <dt>Money</dt>
      <dd>
        {[known, unknown].filter((part) => part !== '').join('; ')}
        {price.quotes.map((quote) => <span key={JSON.stringify(quote)} className="run-estimate__quote">{quoteText(quote)}</span>)}
      </dd>
    </>
  );
}

function Figures({ estimate, count }: { estimate: Ready; count: number }) {
  const { describeNode } = useRunContext();
  const t = estimate.totals;
  const later = estimate.laterRuns;
  if (count > 1 && !later) return <p className="run-estimate__note">Working it out…</p>;
  // The first run's figures, and each later one's as the worker's estimate says.
  const batch = count > 1 && later ? { ...addFigures(t, later.perLaterRun, count - 1), ...later } : undefined;
  const f = batch ?? t;
  const cached = estimate.nodes.filter((n) => n.cached).map((n) => describeNode(n.nodeId).label);
  return (
    <>
      <dl className="run-summary__figures">
        <dt>API calls</dt>
        <dd>{f.apiCalls}{calls(f.imageCalls, f.chatCalls)}</dd>
        <dt>Images</dt>
        <dd>{f.images}{t.servers !== undefined && ` (shared by ${t.servers} servers)`}</dd>
        <dt>Price units</dt>
        <dd title="A regular-sampler image is 1 unit; a premium sampler costs twice as much">{f.priceUnits}</dd>
        {t.price && <Money price={t.price} batch={batch !== undefined} />}
        {t.chatCalls > 0 && (
          <>
            <dt>Chat tokens</dt>
            <dd>{t.chatMaxTokens === null ? 'no cap set' : `up to ${t.chatMaxTokens}`}{batch && ' (first run)'}</dd>
          </>
        )}
        <dt>Cached (free)</dt>
        <dd title={cached.join(', ')}>
          {plural(t.cachedNodes, 'node')}{t.callsSavedByCache > 0 && ` (${plural(t.callsSavedByCache, 'call')} saved)`}
        </dd>
        {t.fanOut && (
          <>
            <dt>Once per item</dt>
            <dd>
              {estimate.nodes.filter((n) => n.items !== undefined).map((n) => `${describeNode(n.nodeId).label}: ${n.itemsDescription ?? n.items}`).join('; ')}
              {t.fanOut.unknownNodes > 0 && `${t.fanOut.nodes > t.fanOut.unknownNodes ? '; ' : ''}${plural(t.fanOut.unknownNodes, 'node')} counted once until ${t.fanOut.unknownNodes === 1 ? 'its list is' : 'their lists are'} known`}
            </dd>
          </>
        )}
        {t.unknownNodes > 0 && (
          <>
            <dt>Known after upstream runs</dt>
            <dd>{plural(t.unknownNodes, 'node')}, counted as running</dd>
          </>
        )}
      </dl>
      {batch && (
        <p className="run-estimate__note">
          {batch.rerun.length === 0
            ? `Runs after the first come from the cache: the seeds stay fixed.`
            : `Each run after the first re-makes ${batch.rerun.map((id) => describeNode(id).label).join(', ')} (${plural(batch.perLaterRun.apiCalls, 'call')}).`}
        </p>
      )}
    </>
  );
}

/**
 * Nodes that would fail before sending anything (a wired prompt over the engine's token limit):
 * said in the open, each a link to its node, not only in the folded breakdown.
 */
function WouldFail({ estimate }: { estimate: Ready }) {
  const { describeNode, focusNode } = useRunContext();
  const failing = estimate.nodes.filter((n) => n.status === 'fails');
  if (failing.length === 0) return null;
  return (
    <div className="run-estimate__fails" role="status">
      <p className="run-estimate__note">{failing.length === 1 ? 'A node would fail' : `${failing.length} nodes would fail`} before sending anything:</p>
      <ul>
        {failing.map((n) => (
          <li key={n.nodeId}>
            <button type="button" className="run-link" onClick={() => focusNode(n.nodeId)}>
              <strong>{describeNode(n.nodeId).label}</strong>: {n.reason ?? 'see the node'}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The first problems that stop the run, each a link to its node and field, said before Run is pressed. */
function Problems({ problems }: { problems: readonly WorkflowProblem[] }) {
  const { describeNode, focusNode } = useRunContext();
  const shown = problems.slice(0, MAX_PROBLEMS_SHOWN);
  return (
    <ul className="run-estimate__problems">
      {shown.map((p, i) => (
        <li key={i}>
          <button type="button" className="run-link" onClick={() => focusNode(p.nodeId, p.field)}>
            <strong>{describeNode(p.nodeId).label}</strong>: {p.message}
          </button>
        </li>
      ))}
      {problems.length > shown.length && <li>and {problems.length - shown.length} more</li>}
    </ul>
  );
}

const MAX_PROBLEMS_SHOWN = 5;

export default function EstimateView({ count }: { count: number }) {
  const state = useEstimate();
  const stale = state.status === 'ready' && state.stale;
  return (
    <section className={`run-estimate${stale ? ' run-estimate--stale' : ''}`} aria-label="Cost estimate" aria-busy={stale || state.status === 'waiting'}>
      <h2 className="run-panel__heading">{count > 1 ? `Cost of ${count} runs` : 'Cost of a run'}</h2>
      {state.status === 'waiting' && <p className="run-estimate__note">Working it out…</p>}
      {state.status === 'unavailable' && <p className="run-estimate__note">Not known: {state.reason}</p>}
      {state.status === 'ready' && <RouteNotes workflow={state.workflow} />}
      {state.status === 'ready' && !state.estimate.ok && (
        <>
          <p className="run-estimate__note">Not known until the workflow can run ({plural(state.estimate.problems.length, 'problem')} to fix):</p>
          <Problems problems={state.estimate.problems} />
        </>
      )}
      {state.status === 'ready' && state.estimate.ok && (
        <>
          <Figures estimate={state.estimate} count={count} />
          <WouldFail estimate={state.estimate} />
          {state.estimate.nodes.some((n) => (n.backend?.notes.length ?? 0) > 0) && (
            <BackendNotes nodes={state.estimate.nodes} />
          )}
          {state.estimate.nodes.length > 0 && <Breakdown estimate={state.estimate} workflow={state.workflow} />}
          {state.estimate.warnings.map((w, i) => <p key={i} className="run-estimate__note">{w}</p>)}
        </>
      )}
    </section>
  );
}
