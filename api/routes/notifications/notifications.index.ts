import { createRouter } from '../../lib/create-app';
import { bearerAuth, okResponses, routesOf } from '../../lib/openapi';
import { requireUser, signedIn } from '../../lib/policy';
import { NotificationPrefsBody, NotificationPrefsSchema } from '../../schemas/notifications';
import { getNotificationPrefs, setNotificationPrefs } from '../../services/notifications/fundraiser';

const notifications = routesOf({
  tags: ['Users'],
  security: bearerAuth,
  middleware: [signedIn()],
});

const getRoute = notifications.get('/users/me/notifications', {
  summary: 'Your fundraiser email switches',
  responses: okResponses(NotificationPrefsSchema, 'Current switches (both on until changed)'),
});

const putRoute = notifications.put('/users/me/notifications', {
  summary: 'Turn fundraiser emails on or off',
  request: { body: { content: { 'application/json': { schema: NotificationPrefsBody } }, required: true } },
  responses: okResponses(NotificationPrefsSchema, 'The switches after the change'),
});

/** My Info's notification switches: each signed-in user reads and changes only their own. */
export const notificationsRouter = createRouter()
  .openapi(getRoute, async (c) => c.json(await getNotificationPrefs(c.var.db, requireUser(c.var.user).id), 200))
  .openapi(putRoute, async (c) => {
    const user = requireUser(c.var.user);
    return c.json(await setNotificationPrefs(c.var.db, user.id, c.req.valid('json')), 200);
  });
