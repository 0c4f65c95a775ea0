import { notifications } from '@mantine/notifications';
import { messageOf } from '../../domain/errors';

export const notifyOk = (message: string) => notifications.show({ color: 'green', message });

/** A failure says what failed (the specification's words) and why (the server's words). */
export const notifyFail = (title: string, err: unknown) => notifications.show({ color: 'red', title, message: messageOf(err) || title, autoClose: 8000 });
