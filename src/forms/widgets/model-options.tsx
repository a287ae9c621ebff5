/** The chat models the endpoint lists, as the suggestions of a model field (loaded with the field's first focus). */
import { useChatModels } from '../../settings/models';

export default function ModelOptions({ listId }: { listId: string }) {
  const models = useChatModels();
  return (
    <datalist id={listId}>
      {models.map((m) => <option key={m} value={m} />)}
    </datalist>
  );
}
