/**
 * The demo shop's own pages (issue 14, 'Pages and reviews'): About, Contact, Shipping & returns, Privacy and Terms,
 * written as the owner would in the page editor (wp/v2/pages, `type` 'page'), and linked from the footer menu
 * (demo-menus.ts). The Contact page's form is the storefront's (app/routes/page.tsx renders it under the page whose
 * slug is CONTACT_PAGE_SLUG); the text above it is the owner's.
 */
import { CONTACT_PAGE_SLUG } from "../../domain/contact/contact-message.ts";

export interface DemoPage {
  slug: string;
  title: string;
  excerpt: string;
  content: string;
}

export const DEMO_PAGES: readonly DemoPage[] = [
  {
    slug: "about",
    title: "About us",
    excerpt: "Maskerade is a small workshop sewing face masks, ties and matching sets in small batches.",
    content: [
      "<p>Maskerade began in 2020 at a kitchen table, with a sewing machine, a stack of leftover cotton and friends who needed masks that fit. Today we are a workshop of six people, and we still cut every mask by hand.</p>",
      "<h2>What we make</h2>",
      "<p>Face masks in three sizes, ties and bow ties cut from the same cloth, and sets that match the two. Every mask has two layers of tightly woven cotton, a pocket for a filter and a wire at the nose.</p>",
      "<h2>How we make it</h2>",
      "<ul><li>Cloth from mills we visit, bought in small lots so that prints stay rare.</li><li>Sewn in our own workshop: no piece work, fair wages.</li><li>Offcuts become bow ties, pocket squares and sewing-pattern samples, so little goes to waste.</li></ul>",
      '<p>Questions, ideas or a wholesale order? <a href="/contact/">Write to us</a>: a person reads every message.</p>',
    ].join(""),
  },
  {
    slug: CONTACT_PAGE_SLUG,
    title: "Contact",
    excerpt: "Write to the Maskerade workshop: orders, sizes, wholesale and everything else.",
    content: [
      "<p>We answer every message ourselves, usually within one working day (Monday to Friday, 9:00 to 17:00).</p>",
      "<p>About an order? Put its number in your message, and we find it faster.</p>",
      '<p>Maskerade Workshop, 12 Tailor Lane, Springfield. Phone <a href="tel:+15550100200">+1 555 0100 200</a>.</p>',
    ].join(""),
  },
  {
    slug: "shipping-returns",
    title: "Shipping & returns",
    excerpt: "Free shipping on masks, delivery times, and returns within 30 days.",
    content: [
      "<h2>Shipping</h2>",
      "<p>Every order leaves the workshop within two working days. Shipping is free on all mask purchases; other orders pay the rate shown at checkout before you pay.</p>",
      "<ul><li>Standard: 3 to 5 working days.</li><li>Express: 1 to 2 working days.</li></ul>",
      "<p>You receive an e-mail with the order's details when it is placed, and another when it ships.</p>",
      "<h2>Returns</h2>",
      "<p>Not happy? Send the items back unworn and unwashed within 30 days of delivery and we refund the price of the items, to the card you paid with, within five working days of receiving them.</p>",
      "<p>For hygiene reasons a mask that has been worn cannot be returned, unless it is faulty. A faulty item is replaced or refunded, and we pay the return postage.</p>",
      '<p>To start a return, <a href="/contact/">write to us</a> with your order number.</p>',
    ].join(""),
  },
  {
    slug: "privacy-policy",
    title: "Privacy policy",
    excerpt: "What Maskerade keeps about you, why, and for how long.",
    content: [
      "<p>This policy says what we keep about you when you visit or buy from this shop, and why.</p>",
      "<h2>What we keep</h2>",
      "<ul><li><strong>Orders:</strong> your name, addresses, e-mail address and what you bought, to deliver it and for our accounts (kept for as long as tax law requires).</li><li><strong>Your account:</strong> if you create one, your details and saved addresses, until you ask us to delete it.</li><li><strong>Messages:</strong> what you send through the contact form, to answer you.</li><li><strong>Payments:</strong> card payments are handled by our payment provider; we never see or keep your full card number.</li></ul>",
      "<h2>Cookies</h2>",
      '<p>The shop needs a few cookies to keep your cart and your sign-in. Analytics and marketing cookies are set only if you agree; change your choice at any time with "Cookie settings" at the bottom of every page.</p>',
      "<h2>Your rights</h2>",
      '<p>You may ask to see, correct or delete what we keep about you. <a href="/contact/">Write to us</a> and we answer within a month.</p>',
    ].join(""),
  },
  {
    slug: "terms",
    title: "Terms and conditions",
    excerpt: "The terms of buying from Maskerade.",
    content: [
      "<p>These terms apply to every order placed on this shop.</p>",
      "<h2>Orders and prices</h2>",
      "<p>Prices are in US dollars and include the discounts shown in the cart. A contract is made when we confirm your order by e-mail. If an item turns out to be out of stock, we tell you and refund it in full.</p>",
      "<h2>Payment</h2>",
      "<p>Orders are paid by card at checkout. Your card is charged when the order is placed.</p>",
      "<h2>Delivery, returns and refunds</h2>",
      '<p>See <a href="/shipping-returns/">Shipping &amp; returns</a>.</p>',
      "<h2>Our masks</h2>",
      "<p>Our cloth masks are not medical devices or personal protective equipment. Wash them before first use and after every wear.</p>",
      "<h2>Questions</h2>",
      '<p><a href="/contact/">Contact us</a>: we would rather sort a problem out with you than argue about terms.</p>',
    ].join(""),
  },
];
