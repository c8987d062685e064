CREATE TABLE "shopify_sandbox_carts" (
	"token" text PRIMARY KEY NOT NULL,
	"key_hash" text NOT NULL,
	"lines" jsonb NOT NULL,
	"buyer_email" text,
	"buyer_country" text,
	"note" text,
	"attributes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shopify_sandbox_orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "shopify_sandbox_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 5000000000001 CACHE 1),
	"cart_token" text NOT NULL,
	"email" text NOT NULL,
	"lines" jsonb NOT NULL,
	"currency" text NOT NULL,
	"total_cents" integer NOT NULL,
	"deliveries" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "shopify_webhook_events" (
	"webhook_id" text PRIMARY KEY NOT NULL,
	"topic" text NOT NULL,
	"order_id" text,
	"outcome" text NOT NULL,
	"failure_reason" text,
	"attempts" integer DEFAULT 1 NOT NULL,
	"received_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "storefront_order_keys" (
	"order_id" text NOT NULL,
	"position" integer NOT NULL,
	"license_key_id" uuid NOT NULL,
	CONSTRAINT "storefront_order_keys_order_id_position_pk" PRIMARY KEY("order_id","position")
);
--> statement-breakpoint
CREATE TABLE "storefront_orders" (
	"order_id" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"name" text NOT NULL,
	"email" text,
	"user_id" uuid,
	"status" text NOT NULL,
	"quantity" integer NOT NULL,
	"financial_status" text NOT NULL,
	"is_test" boolean DEFAULT false NOT NULL,
	"currency" text,
	"total_price" text,
	"ordered_at" timestamp with time zone,
	"received_at" timestamp with time zone NOT NULL,
	"fulfilled_at" timestamp with time zone,
	CONSTRAINT "storefront_orders_quantity_positive" CHECK ("storefront_orders"."quantity" > 0)
);
--> statement-breakpoint
ALTER TABLE "shopify_sandbox_orders" ADD CONSTRAINT "shopify_sandbox_orders_cart_token_shopify_sandbox_carts_token_fk" FOREIGN KEY ("cart_token") REFERENCES "public"."shopify_sandbox_carts"("token") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storefront_order_keys" ADD CONSTRAINT "storefront_order_keys_order_id_storefront_orders_order_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."storefront_orders"("order_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storefront_order_keys" ADD CONSTRAINT "storefront_order_keys_license_key_id_license_keys_id_fk" FOREIGN KEY ("license_key_id") REFERENCES "public"."license_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "storefront_orders" ADD CONSTRAINT "storefront_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shopify_sandbox_orders_cart_key" ON "shopify_sandbox_orders" USING btree ("cart_token");--> statement-breakpoint
CREATE INDEX "shopify_webhook_events_order_idx" ON "shopify_webhook_events" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "storefront_order_keys_key_key" ON "storefront_order_keys" USING btree ("license_key_id");--> statement-breakpoint
CREATE INDEX "storefront_orders_email_idx" ON "storefront_orders" USING btree ("email");--> statement-breakpoint
CREATE INDEX "storefront_orders_user_idx" ON "storefront_orders" USING btree ("user_id");