/**
 * Runs `work` once the browser has painted the current frame (a frame, then a task after it). An input first paints
 * its own small answer (a box ticked, a button busy), and the large render it starts follows (issue 27's interaction
 * budget: INP is the time from the input to its next paint).
 */
export function afterPaint(work: () => void): void {
  requestAnimationFrame(() => setTimeout(work, 0));
}
