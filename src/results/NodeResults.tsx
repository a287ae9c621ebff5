/**
 * A node's results inside the node: images as fixed-size thumbnails from object URLs (a click
 * opens the large viewer, which shows the whole picture), each with "pin this seed" and a download that carries the workflow as it was
 * run; text as plain text (never HTML). Results of an earlier run stay visible, dimmed, while a
 * new run of the node is under way.
 */
import { lazy, Suspense, useCallback, useState } from 'react';
import { useNodePhase, useNodeResult, useRunContext } from '../run/context';
import { imageFileName } from './file-names';
import type { PinAction } from './ImageViewer';
import { ImageThumb } from './ImageThumb';
import { ItemStrip } from './ItemStrip';
import { imagesOf, type ShownImage, type ShownValue } from './object-urls';
import { seedTarget } from './seed-owner';
import { useImageDownload } from './use-image-download';
import { innerNodeAt } from '../../workflow/inner-nodes';
import './results.css';

type ShownText = Extract<ShownValue, { kind: 'text' | 'number' | 'texts' }>;

/** The large viewer loads when an image is first opened. */
const ImageViewer = lazy(() => import('./ImageViewer').then((m) => ({ default: m.ImageViewer })));

function TextResult({ name, value, labelled, nodeLabel }: { name: string; value: ShownText; labelled: boolean; nodeLabel: string }) {
  // A text list reads one item to a paragraph.
  const text = value.kind === 'texts' ? value.value.join('\n\n') : String(value.value);
  return (
    <div className="results__text-block">
      {labelled && <span className="results__port">{name}</span>}
      <output className="results__text nodrag nowheel" aria-label={`${nodeLabel}: ${name} result`} tabIndex={0}>
        {text === '' ? <em>(empty text)</em> : text}
      </output>
    </div>
  );
}

/**
 * A node's results: nothing until it has one (a node without one keeps only this subscription),
 * except on a node that makes pictures (`stage`), which keeps their place from the start.
 */
export function NodeResults({ nodeId, stage = false }: { nodeId: string; stage?: boolean }) {
  if (useNodeResult(nodeId)) return <NodeResultsView nodeId={nodeId} stage={stage} />;
  return stage ? <div className="results results--stage"><div className="results__stage results__stage--empty">No picture yet</div></div> : null;
}

/** Columns for `count` pictures in one fixed area: 1, then 2 × 2, then 3 to a row. */
function columnsFor(count: number): number {
  return count <= 1 ? 1 : count <= 4 ? 2 : 3;
}

function NodeResultsView({ nodeId, stage }: { nodeId: string; stage: boolean }) {
  const { describeNode, workflowTitle, controller, link } = useRunContext();
  const result = useNodeResult(nodeId);
  const phase = useNodePhase(nodeId);
  const [open, setOpen] = useState<number | undefined>();
  const downloader = useImageDownload();
  const images = result ? imagesOf(result.outputs) : [];
  const label = describeNode(nodeId).label;

  const fileName = useCallback(
    (image: ShownImage, index: number) => {
      const { label: nodeLabel, filename } = describeNode(nodeId);
      return imageFileName({ workflowTitle: workflowTitle(), nodeLabel, filename, index, count: images.length, seed: image.seed, mime: image.mime });
    },
    [describeNode, workflowTitle, nodeId, images.length],
  );

  if (!result) return null;
  // A restored result is what the workflow as it is now makes (the cache answers it): its seeds
  // are the document's own, as a random seed is never answered from the cache.
  const run = controller.runOf(result.runId) ?? (result.restored ? { workflow: link.getWorkflow(), seeds: new Map<string, number>(), calls: new Map() } : undefined);

  /** Where the image's seed came from, in the workflow as it was run. */
  const targetOf = (image: ShownImage) =>
    seedTarget(nodeId, image, run?.workflow ?? link.getWorkflow(), link.registry, (id) => controller.state.results.get(id));

  const pinFor = (image: ShownImage): PinAction | undefined => {
    const target = targetOf(image);
    if (!target) return undefined;
    if (!target.ok) return { reason: target.reason };
    // The node may have gone since the run (an inner node of a component by its flat id).
    if (innerNodeAt(link.getWorkflow(), target.nodeId) === undefined) return { reason: 'the node that made it is no longer in the workflow' };
    return { pin: () => link.pinSeed(target.nodeId, target.seed), nodeLabel: describeNode(target.nodeId).label };
  };

  const download = (image: ShownImage, index: number) => {
    if (!image.blob) return;
    const makerId = targetOf(image)?.nodeId ?? nodeId;
    const made = run && innerNodeAt(run.workflow, makerId)?.node;
    const def = made && link.registry.get(made.type);
    downloader.download({
      image: image.blob,
      mime: image.mime,
      fileName: fileName(image, index),
      ...(image.seed === undefined ? {} : { seed: image.seed }),
      ...(image.width === undefined ? {} : { width: image.width }),
      ...(image.height === undefined ? {} : { height: image.height }),
      ...(image.madeOn === undefined ? {} : { madeOn: image.madeOn }),
      ...(run ? { workflow: run.workflow, seeds: run.seeds } : {}),
      ...(made
        ? {
          maker: {
            node: { id: made.id, type: made.type, ...(made.title ? { title: made.title } : {}) },
            ...(def ? { typeVersion: def.version } : {}),
            calls: run?.calls.get(made.id) ?? [],
          },
        }
        : {}),
    });
  };

  // A node that ran once per item shows its items' texts in the strip; a text list of one that
  // repeats a text output (the chat's Items beside its Text) is not shown twice.
  const allTexts = result.items ? [] : Object.entries(result.outputs).filter((e): e is [string, ShownText] => e[1].kind !== 'image' && e[1].kind !== 'images');
  const texts = allTexts.filter(([, v]) => !(v.kind === 'texts' && v.value.length === 1 && allTexts.some(([, w]) => w.kind === 'text' && w.value === v.value[0])));

  const thumb = (image: ShownImage, i: number) => (
    <li key={image.url || `invalid-${i}`} className="results__item">
      <ImageThumb image={image} index={i} label={label} pin={image.seed === undefined ? undefined : pinFor(image)} onOpen={() => setOpen(i)} onDownload={() => download(image, i)} />
    </li>
  );
  // Items of the run under way come in one by one: they are this run's, not an earlier one's.
  const streaming = result.items !== undefined && controller.state.status.get(nodeId)?.runId === result.runId;
  const stale = !streaming && (phase === 'queued' || phase === 'running' || phase === 'failed' || phase === 'cancelled' || phase === 'skipped');

  return (
    <div
      className={`results${stale ? ' results--stale' : ''}${stage ? ' results--stage' : ''}`}
      aria-label={`Results of ${label}`}
      role="group"
      title={stale ? 'From an earlier run' : undefined}
    >
      {result.items ? (
        <ItemStrip items={result.items} label={label} renderImage={(image) => thumb(image, images.indexOf(image))} />
      ) : images.length > 0 ? (
        <ul
          className={`results__images${images.length > 1 ? ' results__images--grid' : ''}`}
          style={images.length > 1 ? { gridTemplateColumns: `repeat(${columnsFor(images.length)}, minmax(0, 1fr))` } : undefined}
        >
          {images.map((image, i) => thumb(image, i))}
        </ul>
      ) : stage && texts.length === 0 && <div className="results__stage results__stage--empty">No picture in this result</div>}
      {texts.map(([name, value]) => (
        <TextResult key={name} name={name} value={value} labelled={texts.length > 1} nodeLabel={label} />
      ))}
      {open !== undefined && images[open] && (
        <Suspense fallback={null}>
          <ImageViewer
            images={images}
            index={open}
            title={label}
            fileName={fileName}
            onIndexChange={setOpen}
            onClose={() => setOpen(undefined)}
            onDownload={download}
            pinFor={pinFor}
          />
        </Suspense>
      )}
      {downloader.dialog}
    </div>
  );
}
