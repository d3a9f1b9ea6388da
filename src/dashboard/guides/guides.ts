/**
 * The two user guides offered under Resources, as text: scripts/make-guides.mjs writes them into
 * public/downloads/*.pdf, and guides.test.ts checks that every dashboard page they name is a real
 * screen (not a mock-up).
 */
export type Guide = { file: string; title: string; sections: { heading: string; lines: string[] }[] };

export const GUIDES: Guide[] = [
  {
    file: 'donor-guide.pdf',
    title: 'UK NFP Donor Guide',
    sections: [
      {
        heading: 'Giving',
        lines: [
          'Find a cause under Campaigns (/campaigns) or Appeals (/appeals) and use the donation box on its page.',
          'Give once (any amount) or monthly (choose a monthly amount). You pay by card; you get an emailed receipt.',
          'UK taxpayers can tick Gift Aid: the charity claims 25p from HMRC for every 1 pound you give.',
          'You may leave a message of support, give anonymously, or hide the amount next to your message.',
        ],
      },
      {
        heading: 'Signing in',
        lines: [
          'Choose Login and enter your email address. We email you a 6-digit code; type it in. There is no password.',
          'Your dashboard opens at /dashboard/overview with your total given, number of gifts and monthly gifts.',
        ],
      },
      {
        heading: 'Your gifts and receipts',
        lines: [
          'My Donations (/dashboard/donations/me) lists every gift with its date, cause, amount and Gift Aid.',
          'Monthly gifts: change the amount, pause for 1 to 3 months, or cancel them there.',
          'Every receipt email also has a link that cancels a monthly gift.',
          'Annual statement: the Annual statement button in My Donations opens a printable list of a tax year (/statement).',
        ],
      },
      {
        heading: 'Your details and Gift Aid',
        lines: [
          'My Info (/dashboard/donors/edit/me): your name, phone, address and photo, and which emails you get as a fundraiser.',
          'Gift Aid declarations are listed in My Info and at /dashboard/gift-aid: give a new address or cancel one there.',
          'Updates by email: switch our news emails on or off in My Info at any time.',
          'Delete my account (in My Info) erases your details after a code we email you; gifts stay as anonymous totals.',
        ],
      },
      {
        heading: 'Help',
        lines: [
          'FAQs (/dashboard/faqs) answer the common questions.',
          'Contact Support (/dashboard/contact) sends your message to our team and a copy to your email.',
          'We reply within 24-48 hours, at the email address of your account.',
        ],
      },
    ],
  },
  {
    file: 'fundraiser-guide.pdf',
    title: 'UK NFP Fundraiser Guide',
    sections: [
      {
        heading: 'Start an appeal',
        lines: [
          'Open Start a Fundraise (/fund-raising), or My Appeals in your dashboard and then Add Appeal (/dashboard/active-appeals-add).',
          'Pick a cause to start from: it fills in a title, a short description and a story you can change.',
          'Add a goal, dates, up to 9 photos (PNG or JPEG, at most 5 MB each) and a video link (YouTube, Vimeo, Loom or Wistia).',
          'Choose the campaign your appeal supports, then Continue. If you are not signed in, you sign in with a code first.',
        ],
      },
      {
        heading: 'Going live',
        lines: [
          'Most appeals are live at once. Some charities check new appeals first: yours shows as draft until they approve it.',
          'My Appeals (/dashboard/active-appeals) lists the appeals you started, drafts included, with Edit and the money raised.',
        ],
      },
      {
        heading: 'Share it',
        lines: [
          'Your appeal has its own page under /appeals with a Share button: copy the link or post it to social networks.',
          'Links show your title, description and first photo when shared.',
          'Supporters give on your page; their messages of support appear there too.',
        ],
      },
      {
        heading: 'Keep track',
        lines: [
          'We email you when your appeal receives gifts (at most one email an hour) and when it reaches half and all of its goal.',
          'Switch those emails off in My Info (/dashboard/donors/edit/me) under Fundraiser emails.',
          'Questions? Contact Support (/dashboard/contact). We reply within 24-48 hours.',
        ],
      },
    ],
  },
];
