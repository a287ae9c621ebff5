/**
 * The fields a component's face shows, to pick: a checkbox per inner field and, once picked, the
 * label it shows under. Make component and Edit face both use it.
 */
import type { ShownChoice } from './shown-choices';

export interface FacePickerProps {
  choices: readonly ShownChoice[];
  /** The picked fields by face name, with their labels. */
  shown: ReadonlyMap<string, string>;
  onChange(next: ReadonlyMap<string, string>): void;
}

export function FacePicker({ choices, shown, onChange }: FacePickerProps) {
  return (
    <fieldset className="make-component-shown">
      <legend>Fields shown on the component</legend>
      {choices.length === 0 && <p className="muted">These nodes have no fields to show.</p>}
      {choices.map((choice) => (
        <div key={choice.name} className="make-component-choice">
          <label>
            <input
              type="checkbox"
              checked={shown.has(choice.name)}
              onChange={(e) => {
                const next = new Map(shown);
                if (e.target.checked) next.set(choice.name, choice.label);
                else next.delete(choice.name);
                onChange(next);
              }}
            />
            {' '}{choice.description}
          </label>
          {shown.has(choice.name) && (
            <input
              type="text"
              aria-label={`Label of ${choice.description}`}
              value={shown.get(choice.name)}
              onChange={(e) => onChange(new Map(shown).set(choice.name, e.target.value))}
            />
          )}
        </div>
      ))}
    </fieldset>
  );
}

/** The picked choices as the face's parameters, in the choices' order; an emptied label falls back to the name. */
export function pickedParams(choices: readonly ShownChoice[], shown: ReadonlyMap<string, string>) {
  return choices.filter((c) => shown.has(c.name)).map(({ name, node, param }) => ({ name, node, param, label: shown.get(name)?.trim() || name }));
}
