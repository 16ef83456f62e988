// The types of pageProbes.js, the benchmark's code that runs inside the page.

export interface OpenTiming {
  /** When the click on the session reached the page. */
  clickAt: number;
  /** When a frame's rAF callback first found the last message in the DOM and in view (layout done). */
  frameAt: number;
  /** After that frame was drawn. */
  paintedAt: number;
  /** Main-thread tasks over 50 ms between the click and the paint. */
  longTasks: number[];
  done: boolean;
}

export interface FrameLog {
  /** rAF timestamps while the streamed message was on screen. */
  frames: number[];
  /** Characters of streamed text at each frame. */
  chars: number[];
  longTasks: number[];
  startedAt?: number;
  endedAt?: number;
  done: boolean;
}

export interface DiffTiming {
  clickAt: number;
  /** First frame with the file's text in both sides of the diff editor. */
  contentAt: number;
  /** First frame with the line holding the change mark decorated as inserted (the diff computed in its worker). */
  changesAt: number;
  longTasks: number[];
  done: boolean;
}

/** A request the page sent over tether serve's WebSocket, and when its answer arrived. */
export interface SocketRequest {
  id: number;
  name: string;
  requestedAt: number;
  answeredAt?: number;
  answerChars?: number;
}

export function armOpenProbe(options: { clickSelector: string; mark: string }): void;
export function watchSocket(): void;
export function armFrameProbe(): void;
export function armDiffProbe(options: { clickSelector: string; mark: string; changeMark: string }): void;
export function probeDone(name: 'open' | 'frames' | 'diff'): boolean;
export function openResult(): OpenTiming;
export function frameLog(): FrameLog;
export function diffResult(): DiffTiming;
export function socketRequests(): SocketRequest[];
export function conversationSize(): { nodes: number; cards: number };
export function diffShows(text: string): boolean;
