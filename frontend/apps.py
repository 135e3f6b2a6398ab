from django.apps import AppConfig


class FrontendConfig(AppConfig):
    name = "frontend"
    verbose_name = "Public pages"

    def ready(self) -> None:
        from frontend import public_routes
        from frontend.charts import receivers
        from frontend.lists import tasks as list_tasks

        receivers.connect()
        # After the charts' receiver: it moves the list generation on, the bulk build stores under it.
        list_tasks.connect()
        public_routes.register()
