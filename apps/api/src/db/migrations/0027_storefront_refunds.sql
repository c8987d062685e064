CREATE TABLE "shopify_sandbox_refunds" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "shopify_sandbox_refunds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 7000000000001 CACHE 1),
	"order_id" bigint NOT NULL,
	"idempotency_key" text NOT NULL,
	"lines" jsonb NOT NULL,
	"amount_cents" integer NOT NULL,
	"note" text,
	"delivery" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "storefront_operator_refunds" (
	"order_id" text NOT NULL,
	"reference" text NOT NULL,
	"refund_id" text NOT NULL,
	"quantity" integer NOT NULL,
	"operator_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "storefront_operator_refunds_order_id_reference_pk" PRIMARY KEY("order_id","reference")
);
--> statement-breakpoint
ALTER TABLE "shopify_sandbox_refunds" ADD CONSTRAINT "shopify_sandbox_refunds_order_id_shopify_sandbox_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."shopify_sandbox_orders"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shopify_sandbox_refunds_key" ON "shopify_sandbox_refunds" USING btree ("idempotency_key");--> statement-breakpoint
CREATE INDEX "shopify_sandbox_refunds_order_idx" ON "shopify_sandbox_refunds" USING btree ("order_id");