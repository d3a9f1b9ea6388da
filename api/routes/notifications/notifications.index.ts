import { createRouter } from '../../lib/create-app';
import { bearerAuth, defineRoute, errorResponses, jsonContent } from '../../lib/openapi';
import { requireUser, signedIn } from '../../lib/policy';
import { NotificationPrefsBody, NotificationPrefsSchema } from '../../schemas/notifications';
import { getNotificationPrefs, setNotificationPrefs } from '../../services/notifications/fundraiser';

const getRoute = defineRoute({
  method: 'get',
  path: '/users/me/notifications',
  tags: ['Users'],
  summary: 'Your fundraiser email switches',
  security: bearerAuth,
  middleware: [signedIn()],
  responses: {
    200: jsonContent(NotificationPrefsSchema, 'Current switches (both on until changed)'),
    ...errorResponses,
  },
});

const putRoute = defineRoute({
  method: 'put',
  path: '/users/me/notifications',
  tags: ['Users'],
  summary: 'Turn fundraiser emails on or off',
  security: bearerAuth,
  middleware: [signedIn()],
  request: { body: { content: { 'application/json': { schema: NotificationPrefsBody } }, required: true } },
  responses: { 200: jsonContent(NotificationPrefsSchema, 'The switches after the change'), ...errorResponses },
});

/** My Info's notification switches: each signed-in user reads and changes only their own. */
export const notificationsRouter = createRouter()
  .openapi(getRoute, async (c) => c.json(await getNotificationPrefs(c.var.db, requireUser(c.var.user).id), 200))
  .openapi(putRoute, async (c) => {
    const user = requireUser(c.var.user);
    return c.json(await setNotificationPrefs(c.var.db, user.id, c.req.valid('json')), 200);
  });
