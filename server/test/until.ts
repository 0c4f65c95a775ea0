/** Waits until `what` holds, asking every 20 ms; fails naming `label` after `ms`. */
export async function until(what: () => Promise<boolean> | boolean, label: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > deadline) throw new Error(`never: ${label}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
