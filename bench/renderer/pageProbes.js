// Measurements taken inside the page. Each function is sent to Chromium as source text
// (page.evaluate / addInitScript), so it uses nothing from this module: only its argument and the
// DOM. It is JavaScript because it runs in the browser while the benchmark around it is compiled
// with Node's types; pageProbes.d.ts gives the benchmark its types. Times are the page's
// performance.now() milliseconds, the clock event.timeStamp also uses.

/**
 * Arms a probe for "open a session": from the next click inside `clickSelector` to the first frame
 * that shows an assistant message containing `mark` inside the conversation's visible area.
 */
export function armOpenProbe({ clickSelector, mark }) {
  const probe = { longTasks: [] };
  window.__benchOpen = probe;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (probe.clickAt !== undefined && entry.startTime >= probe.clickAt) probe.longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask', buffered: false });
  const shown = () => {
    const conversation = document.querySelector('[data-testid="conversation"]');
    if (!conversation) return false;
    const messages = conversation.querySelectorAll('[data-testid="message-assistant"]');
    const last = messages[messages.length - 1];
    if (!last || !(last.textContent ?? '').includes(mark)) return false;
    const box = last.getBoundingClientRect();
    const view = conversation.getBoundingClientRect();
    return box.bottom > view.top && box.top < view.bottom && box.height > 0;
  };
  const frame = () => {
    if (!shown()) {
      requestAnimationFrame(frame);
      return;
    }
    probe.frameAt = performance.now();
    // A message posted from a frame's rAF callback is handled once that frame is drawn.
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      probe.paintedAt = performance.now();
      // Long-task entries are delivered a little after the task; give them a moment.
      setTimeout(() => {
        observer.disconnect();
        probe.done = true;
      }, 100);
    };
    channel.port2.postMessage(null);
  };
  document.addEventListener(
    'click',
    (event) => {
      if (!(event.target instanceof Element) || !event.target.closest(clickSelector) || probe.clickAt !== undefined) return;
      probe.clickAt = event.timeStamp;
      requestAnimationFrame(frame);
    },
    { capture: true },
  );
}

/**
 * Installed before the app loads (addInitScript): notes when the page sends each request over
 * tether serve's WebSocket and when its answer arrives, so a measured time splits into the host's
 * part (reading, diffing, sending) and the page's (parsing, folding, drawing).
 */
export function watchSocket() {
  const requests = [];
  window.__benchSocket = requests;
  const Native = window.WebSocket;
  class WatchedSocket extends Native {
    constructor(url, protocols) {
      super(url, protocols);
      // Added before the app's own handler, so it runs first, as the answer arrives.
      this.addEventListener('message', (event) => {
        if (typeof event.data !== 'string') return;
        const id = /^\{"id":(\d+),/.exec(event.data.slice(0, 40))?.[1];
        const request = id === undefined ? undefined : requests.find((sent) => sent.id === Number(id) && sent.answeredAt === undefined);
        if (!request) return;
        request.answeredAt = performance.now();
        request.answerChars = event.data.length;
      });
    }
    send(data) {
      const head = typeof data === 'string' ? /^\{"id":(\d+),"name":"([^"]+)"/.exec(data.slice(0, 200)) : null;
      if (head) requests.push({ id: Number(head[1]), name: head[2], requestedAt: performance.now() });
      super.send(data);
    }
  }
  window.WebSocket = WatchedSocket;
}

/**
 * Logs every frame's timestamp from the moment a streamed message appears until it goes (the
 * response was stored), so frame times are the gaps between consecutive frames while tokens stream.
 */
export function armFrameProbe() {
  const log = { frames: [], chars: [], longTasks: [], done: false };
  window.__benchFrames = log;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (log.startedAt !== undefined && log.endedAt === undefined) log.longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask', buffered: false });
  const frame = (time) => {
    const streaming = document.querySelector('[data-testid="message-streaming"]');
    if (streaming) {
      if (log.startedAt === undefined) log.startedAt = time;
      log.frames.push(time);
      log.chars.push((streaming.textContent ?? '').length);
    } else if (log.startedAt !== undefined) {
      log.endedAt = time;
      observer.disconnect();
      log.done = true;
      return;
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

/**
 * Arms a probe for "open a file's diff": from the next click inside `clickSelector` to the first
 * frame where both sides of the editor (the one side, inline) show a line containing `mark`, and to the first frame where
 * the line containing `changeMark` carries an insertion decoration (checked by position, so marks
 * left from the file shown before do not count).
 */
export function armDiffProbe({ clickSelector, mark, changeMark }) {
  const probe = { longTasks: [] };
  window.__benchDiff = probe;
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (probe.clickAt !== undefined && entry.startTime >= probe.clickAt) probe.longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask', buffered: false });
  const viewer = () => document.querySelector('[data-testid="diff-viewer"]');
  // Monaco draws spaces as no-break spaces.
  const text = (element) => (element.textContent ?? '').replace(/\u00a0/g, ' ');
  // Every run of lines the side draws: inline, the removed lines are drawn in zones of their own among the agent's.
  const sideShows = (side) => [...(viewer()?.querySelectorAll(`.${side} .view-lines`) ?? [])].some((lines) => text(lines).includes(mark));
  const changeMarked = () => {
    const modified = viewer()?.querySelector('.modified');
    if (!modified) return false;
    const line = [...modified.querySelectorAll('.view-line')].find((element) => text(element).includes(changeMark));
    if (!line) return false;
    const box = line.getBoundingClientRect();
    return [...modified.querySelectorAll('.line-insert, .char-insert')].some((element) => {
      const marked = element.getBoundingClientRect();
      return marked.height > 0 && marked.top < box.bottom - 1 && marked.bottom > box.top + 1;
    });
  };
  // Inline (the panel's choice in a narrow column) draws the agent's side only, the removed lines among its own.
  const inline = () => viewer()?.getAttribute('data-layout') === 'inline';
  const frame = (time) => {
    if (probe.contentAt === undefined && sideShows('modified') && (inline() || sideShows('original'))) probe.contentAt = time;
    if (probe.contentAt !== undefined && probe.changesAt === undefined && changeMarked()) probe.changesAt = time;
    if (probe.contentAt !== undefined && probe.changesAt !== undefined) {
      setTimeout(() => {
        observer.disconnect();
        probe.done = true;
      }, 100);
      return;
    }
    requestAnimationFrame(frame);
  };
  document.addEventListener(
    'click',
    (event) => {
      if (!(event.target instanceof Element) || !event.target.closest(clickSelector) || probe.clickAt !== undefined) return;
      probe.clickAt = event.timeStamp;
      requestAnimationFrame(frame);
    },
    { capture: true },
  );
}

/** Whether the probe armed last has everything it waits for. */
export function probeDone(name) {
  return window[{ open: '__benchOpen', frames: '__benchFrames', diff: '__benchDiff' }[name]]?.done === true;
}

/** What the open probe measured. */
export function openResult() {
  return window.__benchOpen;
}

/** What the frame probe logged. */
export function frameLog() {
  return window.__benchFrames;
}

/** What the diff probe measured. */
export function diffResult() {
  return window.__benchDiff;
}

/** The requests watchSocket saw. */
export function socketRequests() {
  return window.__benchSocket ?? [];
}

/** How much the conversation draws. */
export function conversationSize() {
  return {
    nodes: document.querySelectorAll('[data-testid="conversation"] *').length,
    cards: document.querySelectorAll('[data-testid="tool-card"]').length,
  };
}

/** Whether the diff editor's modified side shows `text`. */
export function diffShows(text) {
  // Inline, the removed lines are drawn in zones of their own (also `.view-lines`) among the agent's.
  return [...document.querySelectorAll('[data-testid="diff-viewer"] .modified .view-lines')].some((lines) =>
    (lines.textContent ?? '').replace(/\u00a0/g, ' ').includes(text),
  );
}
