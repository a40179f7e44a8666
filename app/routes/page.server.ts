/**
 * The server half of the page route: a published page (wp/v2/pages) at its slug; anything else is the 404 page. The
 * Contact page (CONTACT_PAGE_SLUG) also carries the contact form, whose plain POST is answered here
 * (docs/contract/storefront.md §4 'Contact form').
 */
import { data } from "react-router";
import { findPublishedPage } from "../../core/db/repositories/content.ts";
import { richTextHtml } from "../../core/domain/text/kses.ts";
import { CONTACT_PAGE_SLUG, readContactForm } from "../../core/domain/contact/contact-message.ts";
import type { ContactFormResult } from "../components/contact/ContactForm.tsx";
import { sendContactMessage } from "../../core/commerce/contact-messages.ts";
import { readSiteOptions } from "../../core/commerce/site-options.ts";
import type { Route } from "./+types/page";

export async function loader({ context, params }: Route.LoaderArgs) {
  const page = await findPublishedPage(context.services.db, params.slug);
  if (!page) throw data(null, { status: 404 });
  // Staff-written HTML through the allow-list (docs/contract/rest/content.md 'Sanitising'); a text without tags as paragraphs.
  return { page: { ...page, content: richTextHtml(page.content) }, origin: context.origin, contactForm: page.slug === CONTACT_PAGE_SLUG };
}

export async function action({ context, params, request }: Route.ActionArgs) {
  const { services } = context;
  // Only the published Contact page takes a post; any other page answers as WordPress does a POST to a page: 405.
  if (params.slug !== CONTACT_PAGE_SLUG || !(await findPublishedPage(services.db, params.slug))) throw data(null, { status: 405 });
  const form = await request.formData();
  const input = readContactForm(form);
  const options = await readSiteOptions(services.db, services.config);
  const outcome = await sendContactMessage(services.db, {
    input,
    address: context.clientAddress,
    now: services.now(),
    site: { name: options.title, url: services.siteUrl, email: options.email },
  });
  if (outcome.ok) return data<ContactFormResult>({ sent: true, email: input.email });
  const values = { name: input.name, email: input.email, message: input.message };
  if (outcome.reason === "limited") return data<ContactFormResult>({ sent: false, errors: {}, limited: outcome.message, values }, { status: 429 });
  return data<ContactFormResult>({ sent: false, errors: outcome.errors, limited: null, values }, { status: 400 });
}
