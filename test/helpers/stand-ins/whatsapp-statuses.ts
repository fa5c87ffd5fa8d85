/**
 * A stand-in for the recorded WhatsApp status webhooks (`../shared/data/samples/whatsapp/
 * pywa_tests_data_updates_message_status.json`, from pywa's test data): one body per status,
 * `sent`, `delivered`, `read` and `failed`, in Meta's shape (object, entry[].changes[].value with
 * metadata, contacts and statuses[]; a failed status carries errors[] with code, title, message,
 * error_data.details and href).
 */
const body = (status: Record<string, unknown>) => ({
  object: 'whatsapp_business_account',
  entry: [
    {
      id: '5467539754836534',
      changes: [
        {
          value: {
            messaging_product: 'whatsapp',
            metadata: { display_phone_number: '972123456789', phone_number_id: '1122334455667' },
            contacts: [{ profile: { name: 'Test Name' }, wa_id: '972987654321' }],
            statuses: [
              { id: 'wamid.xyzxyz', timestamp: '1698266945', recipient_id: '972987654321', ...status },
            ],
          },
          field: 'messages',
        },
      ],
    },
  ],
});

const pricing = { billable: true, pricing_model: 'PMP', type: 'regular', category: 'utility' };

export function whatsappStatuses(): string {
  return JSON.stringify({
    sent: body({ status: 'sent', pricing }),
    delivered: body({ status: 'delivered', pricing }),
    read: body({ status: 'read' }),
    failed: body({
      status: 'failed',
      errors: [
        {
          code: 130472,
          title: "User's number is part of an experiment",
          message: "User's number is part of an experiment",
          error_data: {
            details: "Failed to send message because this user's phone number is part of an experiment",
          },
          href: 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/',
        },
      ],
    }),
  });
}
