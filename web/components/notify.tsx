import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ApiError, CHECK_AMOUNT, messageOf } from '../../domain/errors';

/** Failures on screen: a success takes them down, so no red message stays over the try that worked. */
const failures = new Set<string>();

/** A success; `undo` adds a button that takes it back (and the message down). */
export const notifyOk = (message: string, undo?: () => void) => {
  for (const id of failures) notifications.hide(id);
  failures.clear();
  if (!undo) return void notifications.show({ color: 'green', message });
  const id = `done: ${message}`;
  const take = () => {
    notifications.hide(id);
    undo();
  };
  notifications.show({
    id,
    color: 'green',
    autoClose: 10_000,
    message: (
      <>
        {message}
        <Button size="compact-xs" variant="light" ml="xs" onClick={take}>
          Undo
        </Button>
      </>
    ),
  });
};

/** A refusal that is a question the form asks under its field (a large front gross): no red message for it. */
export const isQuestion = (err: unknown) => err instanceof ApiError && err.code === CHECK_AMOUNT;

/**
 * A failure says what failed (the specification's words) and why (the server's words): as a title
 * above the reason, or `oneLine` ("Failed to save: {message}"); `what` null says the reason alone.
 * The same failure again takes the place of the last.
 */
export const notifyFail = (what: string | null, err: unknown, { oneLine = false } = {}) => {
  const why = messageOf(err) || what || 'Unknown error';
  const id = `failed: ${what ?? why}`;
  failures.add(id);
  notifications.hide(id);
  const words = what === null ? { message: why } : oneLine ? { message: `${what}: ${why}` } : { title: what, message: why };
  notifications.show({ id, color: 'red', ...words, autoClose: 8000, onClose: () => failures.delete(id) });
};
