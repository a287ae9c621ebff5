/** What every form control receives from its field row. */
import type { FieldSpec } from '../field-plan';

export interface SetOptions {
  /** Keystrokes or a slider drag: merged into one undo step while they continue. */
  typing?: boolean;
}

export interface WidgetProps {
  /** The id of the control, which the field's <label> points at. */
  id: string;
  nodeId: string;
  spec: FieldSpec;
  value: unknown;
  params: Readonly<Record<string, unknown>>;
  /** Sets this parameter; `undefined` clears it (the node's default applies). */
  set: (value: unknown, options?: SetOptions) => void;
  /** Sets several parameters as one undo step. */
  setMany: (values: Record<string, unknown>) => void;
  /** Ids of the description and problem texts, for aria-describedby. */
  describedBy: string | undefined;
  invalid: boolean;
}
