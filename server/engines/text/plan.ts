/** The plan for an answer, read from the conversation by `conversation.ts`. */
import { type Format } from './constraints';
import { type Task } from './intent';
import { type Subject } from './subject';

export interface Plan {
  task: Task;
  subject?: Subject;
  /** Things added by later turns ("add a red fox"), placed after the subject. */
  additions: string[];
  /** Topic weights: 1 for what the subject implies, 2 for what the user asked for explicitly. */
  topics: Map<string, number>;
  format: Format;
  /** For lists: how many items, and of what. */
  count?: number;
  category?: string;
  /** The user's last message, for answers, and what an unsupported request asked for. */
  request: string;
  unsupported?: string;
  /** A style the user named that no bank knows ("in the style of art deco posters"). */
  literalStyle?: string;
  /** Words the user asked to leave out. */
  excluded: Set<string>;
  /** Words of the previous answer, avoided when the user asks for another version. */
  avoid: Set<string>;
  /** The previous answer, if any. */
  previous?: string;
}
