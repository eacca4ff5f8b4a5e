//! pods/ephemeralcontainers and pods/resize as kube-apiserver 1.33 serves them (issue
//! 17): `kubectl debug` adds an ephemeral container through the subresource, which may
//! only add; the pod itself may not change them; a resize changes only containers' CPU
//! and memory, within the pod's QoS class.

use crate::harness::Server;

fn run(server: &Server, args: &[&str]) -> (bool, String, String) {
    let out = server.kubectl(args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ephemeral_containers_and_resize() {
    let server = Server::builder().start().await;
    let (ok, _, err) = run(
        &server,
        &[
            "run",
            "web",
            "--image=nginx",
            "--overrides",
            r#"{"spec":{"containers":[{"name":"web","image":"nginx","resources":{"requests":{"cpu":"100m","memory":"64Mi"}}}]}}"#,
        ],
    );
    assert!(ok, "{err}");
    let (ok, _, err) = run(
        &server,
        &[
            "debug",
            "web",
            "--image=busybox",
            "-c",
            "dbg",
            "--profile=general",
        ],
    );
    assert!(ok, "{err}");
    let (_, names, _) = run(
        &server,
        &[
            "get",
            "pod",
            "web",
            "-o",
            "jsonpath={.spec.ephemeralContainers[*].name}",
        ],
    );
    assert_eq!(names, "dbg");
    // Through the subresource they may only be added.
    let (ok, _, err) = run(
        &server,
        &[
            "patch",
            "pod",
            "web",
            "--subresource=ephemeralcontainers",
            "--type=json",
            "-p",
            r#"[{"op":"remove","path":"/spec/ephemeralContainers/0"}]"#,
        ],
    );
    assert!(!ok);
    assert!(
        err.contains("The Pod \"web\" is invalid: spec.ephemeralContainers: Forbidden: existing ephemeral containers \"dbg\" may not be removed"),
        "{err}"
    );
    let (ok, _, err) = run(
        &server,
        &[
            "patch",
            "pod",
            "web",
            "--subresource=ephemeralcontainers",
            "--type=json",
            "-p",
            r#"[{"op":"add","path":"/spec/ephemeralContainers/-","value":{"name":"x","image":"y","ports":[{"containerPort":80}]}}]"#,
        ],
    );
    assert!(!ok);
    assert!(
        err.contains("spec.ephemeralContainers[1].ports: Forbidden: cannot be set for an Ephemeral Container"),
        "{err}"
    );
    // Nor through the pod itself, nor on create.
    let (ok, _, err) = run(
        &server,
        &[
            "patch",
            "pod",
            "web",
            "--type=json",
            "-p",
            r#"[{"op":"add","path":"/spec/ephemeralContainers/-","value":{"name":"y","image":"y"}}]"#,
        ],
    );
    assert!(!ok);
    assert!(
        err.contains("spec: Forbidden: pod updates may not change fields other than"),
        "{err}"
    );
    let (ok, _, err) = run(
        &server,
        &[
            "run",
            "born",
            "--image=nginx",
            "--overrides",
            r#"{"spec":{"ephemeralContainers":[{"name":"e","image":"busybox"}]}}"#,
        ],
    );
    assert!(!ok);
    assert!(
        err.contains("spec.ephemeralContainers: Forbidden: cannot be set on create"),
        "{err}"
    );

    // A resize changes CPU and memory only, and nothing else the body says.
    let (ok, _, err) = run(
        &server,
        &[
            "patch",
            "pod",
            "web",
            "--subresource=resize",
            "-p",
            r#"{"spec":{"containers":[{"name":"web","image":"other","resources":{"requests":{"cpu":"200m","memory":"64Mi"}}}]}}"#,
        ],
    );
    assert!(ok, "{err}");
    let (_, got, _) = run(
        &server,
        &[
            "get",
            "pod",
            "web",
            "-o",
            "jsonpath={.spec.containers[0].resources.requests.cpu} {.spec.containers[0].image}",
        ],
    );
    assert_eq!(got, "200m nginx");
    let (ok, _, err) = run(
        &server,
        &[
            "patch",
            "pod",
            "web",
            "--subresource=resize",
            "--type=json",
            "-p",
            r#"[{"op":"remove","path":"/spec/containers/0/resources"}]"#,
        ],
    );
    assert!(!ok);
    assert!(
        err.contains("Pod QOS Class may not change as a result of resizing"),
        "{err}"
    );
}
