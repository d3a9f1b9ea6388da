/** Contact Support: messages stored, emailed to the charity and the sender, and read by admins. */
export type { SupportRequestDto } from './dto';
export { listSupportRequests, setSupportRequestHandled } from './inbox';
export { sendSupportRequest } from './send';
