import { useActionData } from "react-router";
import type { Route } from "./+types/page";
import { pageTitle } from "../lib/listing-params.ts";
import { ContactForm } from "../components/contact/ContactForm.tsx";
import { loader as serverLoader, action as serverAction } from "./page.server.ts";

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export async function action(args: Route.ActionArgs) {
  return serverAction(args);
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [
        { title: pageTitle(loaderData.page.title) },
        ...(loaderData.page.excerpt ? [{ name: "description", content: loaderData.page.excerpt }] : []),
        { tagName: "link", rel: "canonical", href: `${loaderData.origin}/${loaderData.page.slug}/` },
      ]
    : [];

export default function Page({ loaderData }: Route.ComponentProps) {
  const { page, contactForm } = loaderData;
  const result = useActionData<typeof action>();
  return (
    <article className="page">
      <h1 className="page-title">{page.title}</h1>
      <div className="entry-content" dangerouslySetInnerHTML={{ __html: page.content }} />
      {contactForm ? <ContactForm action={`/${page.slug}/`} result={result} /> : null}
    </article>
  );
}
