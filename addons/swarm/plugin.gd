@tool
extends EditorPlugin
## Editor side of the Swarm addon. The node and resource classes come from the GDExtension
## (swarm.gdextension) and are registered by Godot on load; this plugin only exists so the
## addon can be switched on and off in Project Settings > Plugins.
