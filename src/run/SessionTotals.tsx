/** What this tab's runs have used so far (kept in sessionStorage), with a way to start over. */
import type { SessionUsage } from '../../workers/usage';
import { useRunContext, useSessionUsage } from './context';
import { plural } from './format';

/** The tokens the chat API reported; a stream need not report any (service-interface.md 2.9). */
function chatTokens(used: SessionUsage['used']): string {
  if (used.chatCallsWithoutUsage === 0) return String(used.chatTokens.total);
  if (used.chatTokens.total === 0) return 'not reported by the service';
  return `${used.chatTokens.total} or more`;
}

export function SessionTotals() {
  const { session } = useRunContext();
  const usage = useSessionUsage();
  if (usage.runs === 0) return null;
  const { used } = usage;
  return (
    <section className="run-session" aria-label="This session">
      <h2 className="run-panel__heading">This session</h2>
      <dl className="run-summary__figures">
        <dt>Runs</dt>
        <dd>{usage.runs}</dd>
        <dt>Calls made</dt>
        <dd>{used.imageCalls + used.chatCalls}</dd>
        <dt>Images made</dt>
        <dd>{used.images} ({plural(used.priceUnits, 'price unit')})</dd>
        {used.chatCalls > 0 && (
          <>
            <dt>Chat tokens</dt>
            <dd title={used.chatCallsWithoutUsage > 0 ? `${plural(used.chatCallsWithoutUsage, 'chat call')} did not report usage` : undefined}>
              {chatTokens(used)}
            </dd>
          </>
        )}
        <dt>Calls saved by the cache</dt>
        <dd>{usage.apiCallsSaved}{usage.saved.images > 0 && ` (${plural(usage.saved.images, 'image')}, ${plural(usage.saved.priceUnits, 'price unit')})`}</dd>
      </dl>
      <button type="button" className="run-link" onClick={() => session.reset()}>
        Reset the session totals
      </button>
    </section>
  );
}
