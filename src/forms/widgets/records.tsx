/**
 * Name → value rows: LoRAs (asset name → weight) and textual inversions (asset name → trigger
 * word). Rows being typed (an empty name, a duplicate) stay on screen and are written to the
 * document only once they make a valid entry.
 */
import { useEffect, useState } from 'react';
import { PUBLIC_ASSET_PREFIX } from '../../../api/catalog';
import type { WidgetProps } from './types';

interface Row {
  key: number;
  name: string;
  value: string;
}

let nextKey = 1;

function rowsFrom(value: unknown): Row[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value as Record<string, unknown>).map(([name, v]) => ({ key: nextKey++, name, value: String(v) }));
}

function recordFrom(rows: readonly Row[], numeric: boolean): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const row of rows) {
    const name = row.name.trim();
    if (name === '' || Object.hasOwn(out, name)) continue;
    if (numeric) {
      const n = Number(row.value);
      if (row.value.trim() === '' || !Number.isFinite(n)) continue;
      out[name] = n;
    } else if (row.value.trim() !== '') {
      out[name] = row.value;
    }
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

function RecordRows({ id, value, set, describedBy, numeric, noun, valueLabel }: WidgetProps & { numeric: boolean; noun: string; valueLabel: string }) {
  const [rows, setRows] = useState<Row[]>(() => rowsFrom(value));
  useEffect(() => {
    // The document changed elsewhere (undo, paste): follow it unless it is what these rows say.
    setRows((current) => (same(recordFrom(current, numeric), value) ? current : rowsFrom(value)));
  }, [value, numeric]);

  const update = (next: Row[]) => {
    setRows(next);
    const record = recordFrom(next, numeric);
    if (!same(record, value)) set(record, { typing: true });
  };
  const duplicates = new Set(rows.map((r) => r.name.trim()).filter((n, i, all) => n !== '' && all.indexOf(n) !== i));

  return (
    <div className="record-rows" id={id} role="group" aria-describedby={describedBy}>
      {rows.map((row, i) => (
        <div className="record-row" key={row.key}>
          <input
            className="input"
            type="text"
            value={row.name}
            placeholder={`${PUBLIC_ASSET_PREFIX}name or private name`}
            aria-label={`${noun} ${i + 1} name`}
            aria-invalid={duplicates.has(row.name.trim()) || undefined}
            spellCheck={false}
            onChange={(e) => update(rows.map((r) => (r.key === row.key ? { ...r, name: e.target.value } : r)))}
          />
          <input
            className={`input ${numeric ? 'number narrow' : ''}`}
            type="text"
            inputMode={numeric ? 'decimal' : 'text'}
            value={row.value}
            placeholder={valueLabel}
            aria-label={`${noun} ${i + 1} ${valueLabel}`}
            onChange={(e) => update(rows.map((r) => (r.key === row.key ? { ...r, value: e.target.value } : r)))}
          />
          <button type="button" className="icon-button" aria-label={`Remove ${noun} ${i + 1}`} onClick={() => update(rows.filter((r) => r.key !== row.key))}>×</button>
        </div>
      ))}
      {duplicates.size > 0 && <p className="field-issue">{[...duplicates].map((d) => `'${d}'`).join(', ')} appears twice; only the first counts</p>}
      <button type="button" className="button small" onClick={() => setRows([...rows, { key: nextKey++, name: '', value: numeric ? '1' : '' }])}>
        Add {noun}
      </button>
    </div>
  );
}

export function WeightsWidget(props: WidgetProps) {
  return <RecordRows {...props} numeric noun="LoRA" valueLabel="weight" />;
}

export function TriggersWidget(props: WidgetProps) {
  return <RecordRows {...props} numeric={false} noun="textual inversion" valueLabel="trigger word" />;
}
