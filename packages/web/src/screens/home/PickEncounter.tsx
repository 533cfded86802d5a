import { useId, useState } from 'react';

/** A file with several saved encounters (an Improved Initiative export): which one becomes the new encounter. */
export function PickEncounter({
  file,
  choices,
  pick,
  cancel,
}: {
  file: string;
  choices: string[];
  pick: (name: string) => void;
  cancel: () => void;
}) {
  const [chosen, setChosen] = useState(choices[0]!);
  const id = useId();
  return (
    <fieldset className="options" aria-label="Which saved encounter">
      <legend>
        {file} holds {choices.length} saved encounters: which one?
      </legend>
      <div className="field">
        <label htmlFor={id}>Saved encounter</label>
        <select id={id} value={chosen} onChange={(e) => setChosen(e.currentTarget.value)}>
          {choices.map((name, i) => (
            // Names may repeat in a file: the position keeps each its own option.
            // biome-ignore lint/suspicious/noArrayIndexKey: the file's list does not change while it is shown.
            <option key={i} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div className="row">
        <button type="button" className="primary" onClick={() => pick(chosen)}>
          Import this encounter
        </button>
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      </div>
    </fieldset>
  );
}
