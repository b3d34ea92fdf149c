//! The one conversion of a Godot camera into the core's view frustum.

use godot::classes::Camera3D;
use godot::prelude::*;
use swarm_core::glam::Vec4;
use swarm_core::Frustum;

use crate::convert::to_vec3;

/// The frustum of the camera at `camera_path` (relative to `node`), else of `node`'s viewport's
/// current camera; `None` when there is no such camera or it is outside the tree. The planes
/// are Godot's `Camera3D.get_frustum()` (outward normals); callers that need finite planes check
/// [`Frustum::is_valid`].
pub fn frustum(node: &Gd<Node>, camera_path: &NodePath) -> Option<Frustum> {
    let cam: Gd<Camera3D> = if camera_path.is_empty() {
        node.get_viewport()?.get_camera_3d()?
    } else {
        node.get_node_or_null(camera_path)?.try_cast::<Camera3D>().ok()?
    };
    if !cam.is_inside_tree() {
        return None;
    }
    let planes = cam.get_frustum().iter_shared().map(|p| Vec4::new(p.normal.x, p.normal.y, p.normal.z, p.d)).collect();
    Some(Frustum { planes, position: to_vec3(cam.get_global_position()) })
}
