import type { AppConfig } from '../../lib/config';
import { createDemoProvider } from './demo';
import type { PaymentProvider } from './provider';
import { createStripeProvider } from './stripe';

export type { PaymentProvider, SubscriptionChange } from './provider';

/** Stripe when its secret key is set; else demo payments, which a production server refuses to take. */
export function createPaymentProvider(
  config: Pick<AppConfig, 'stripeSecretKey' | 'stripeApiBase' | 'stripePublishableKey' | 'authSecret' | 'production'>,
): PaymentProvider {
  const demo = createDemoProvider({ authSecret: config.authSecret, allowed: !config.production });
  return config.stripeSecretKey ? createStripeProvider(config, demo) : demo;
}
